// What a loop stores agrees with what its call returned, with the real SDK clients over HTTP: a provider's bad usage
// is ignored with context:usage_rejected and the turn kept; a call the provider rejects stores nothing.
import { createOpenAI } from "@ai-sdk/openai";
import Anthropic from "@anthropic-ai/sdk";
import { contextMiddleware } from "@ctxkit/ai-sdk";
import { contextMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { ScriptedUsage } from "@ctxkit/conformance";
import { ContextOverflowError, type ContextEventMap, type EventHandler } from "@ctxkit/core";
import { contextModels } from "@ctxkit/google";
import { contextChatCompletions, contextResponses } from "@ctxkit/openai";
import { generateText, wrapLanguageModel } from "ai";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedProvider, type ScriptedProvider } from "./scripted-provider.js";

let server: ScriptedProvider;
beforeAll(async () => {
  server = await startScriptedProvider();
});
afterAll(() => server.close());

type Loop = (context: ReturnType<typeof createSimpleContext>, text: string, onEvent: EventHandler) => Promise<unknown>;

const LOOPS: Record<string, Loop> = {
  contextMessages: (context, text, onEvent) =>
    contextMessages(new Anthropic({ baseURL: server.url, apiKey: "test", maxRetries: 0 }), context, { onEvent }).create({
      model: "claude-sonnet-4-6",
      max_tokens: 256,
      messages: [{ role: "user", content: text }],
    }),
  contextChatCompletions: (context, text, onEvent) =>
    contextChatCompletions(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 }), context, { onEvent }).create({
      model: "gpt-4.1-mini",
      messages: [{ role: "user", content: text }],
    }),
  contextResponses: (context, text, onEvent) =>
    contextResponses(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 }), context, { onEvent }).create({
      model: "gpt-4.1-mini",
      input: text,
    }),
  "contextMessages (streamed)": async (context, text, onEvent) => {
    const stream = await contextMessages(new Anthropic({ baseURL: server.url, apiKey: "test", maxRetries: 0 }), context, {
      onEvent,
    }).create({
      model: "claude-sonnet-4-6",
      max_tokens: 256,
      stream: true,
      messages: [{ role: "user", content: text }],
    });
    return stream.finalResponse();
  },
  "contextChatCompletions (streamed)": async (context, text, onEvent) => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
    const stream = await contextChatCompletions(client, context, { onEvent }).create({
      model: "gpt-4.1-mini",
      stream: true,
      messages: [{ role: "user", content: text }],
    });
    return stream.finalResponse();
  },
  "contextResponses (streamed)": async (context, text, onEvent) => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
    const stream = await contextResponses(client, context, { onEvent }).create({ model: "gpt-4.1-mini", stream: true, input: text });
    return stream.finalResponse();
  },
  contextModels: (context, text, onEvent) =>
    contextModels(new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } }), context, { onEvent }).generateContent({
      model: "gemini-2.5-flash",
      contents: [{ role: "user", parts: [{ text }] }],
    }),
  "contextModels (streamed)": async (context, text, onEvent) => {
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
    const stream = await contextModels(ai, context, { onEvent }).generateContentStream({
      model: "gemini-2.5-flash",
      contents: [{ role: "user", parts: [{ text }] }],
    });
    return stream.finalResponse();
  },
  contextMiddleware: (context, text, onEvent) =>
    generateText({
      model: wrapLanguageModel({
        model: createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "test" }).chat("gpt-4.1-mini"),
        middleware: contextMiddleware(context, { onEvent }),
      }),
      maxRetries: 0,
      messages: [{ role: "user", content: text }],
    }),
};

// Over HTTP a figure is JSON: no NaN, and Infinity only as a sum that overflows.
const MALFORMED: Record<string, ScriptedUsage> = {
  "a negative count": { input: -5, output: 3 },
  "a missing input count": { output: 3 },
  "a count given as text": { input: "12", output: 3 },
};

function recorder() {
  const events: ContextEventMap["context:usage_rejected"][] = [];
  const onEvent: EventHandler = (event, payload) => {
    if (event === "context:usage_rejected") events.push(payload as ContextEventMap["context:usage_rejected"]);
  };
  return { events, onEvent };
}

describe.each(Object.entries(LOOPS))("%s", (name, loop) => {
  // (regression) A provider's malformed usage rejected the call with ContextValidationError after the turn was stored.
  it.each(Object.entries(MALFORMED))("should keep the turn and ignore the usage when the provider reports %s", async (_case, usage) => {
    // The AI SDK's own response schema refuses a count given as text: that call fails, and stores nothing.
    const refusedBySdk = name === "contextMiddleware" && typeof usage.input === "string";
    const context = createSimpleContext({ maxTokens: 8_192, tokenizer: "estimate" });
    const { events, onEvent } = recorder();
    server.answer = { kind: "answer", text: "Answered.", usage };
    const outcome = loop(context, "Hello?", onEvent);
    if (refusedBySdk) {
      await expect(outcome).rejects.toThrow();
      expect(await context.getMessages()).toEqual([]);
      return;
    }
    await expect(outcome).resolves.toBeDefined();
    expect((await context.getMessages()).map((message) => [message.role, message.content])).toEqual([
      ["user", "Hello?"],
      ["assistant", expect.anything()],
    ]);
    expect(events).toHaveLength(name === "contextMiddleware" && usage.input === undefined ? 0 : 1);
  });

  // (regression) The turn stayed stored after the call rejected, so a caller who sent it again stored it twice.
  it("should store nothing from a call the provider rejects as too long, and take the same turn again afterwards", async () => {
    const context = createSimpleContext({ maxTokens: 8_192, tokenizer: "estimate" });
    const { onEvent } = recorder();
    server.answer = { kind: "answer", text: "First.", usage: { input: 10, output: 2 } };
    await loop(context, "One?", onEvent);
    const before = await context.getMessages();
    server.answer = { kind: "too-long" };
    const error = await loop(context, "Two?", onEvent).catch((caught: unknown) => caught);
    if (name !== "contextMiddleware") expect(error).toBeInstanceOf(ContextOverflowError);
    else expect(String(error)).toMatch(/maximum context length/);
    expect(await context.getMessages()).toEqual(before);
    server.answer = { kind: "answer", text: "Second.", usage: { input: 20, output: 2 } };
    await loop(context, "Two?", onEvent);
    expect((await context.getMessages()).filter((message) => message.role === "user").map((message) => message.content)).toEqual([
      "One?",
      "Two?",
    ]);
  });
});

describe("contextMessages", () => {
  it("should ignore, and say so, cache counts whose sum overflows", async () => {
    const context = createSimpleContext({ maxTokens: 8_192, tokenizer: "estimate" });
    const { events, onEvent } = recorder();
    server.answer = { kind: "answer", text: "Answered.", usage: { input: Number.MAX_VALUE, cacheRead: Number.MAX_VALUE, output: 1 } };
    await expect(LOOPS["contextMessages"]!(context, "Hello?", onEvent)).resolves.toBeDefined();
    expect(await context.getMessages()).toHaveLength(2);
    expect(events).toEqual([
      { provider: "Anthropic Messages", problems: [expect.objectContaining({ reason: expect.stringMatching(/overflows/) })] },
    ]);
  });
});
