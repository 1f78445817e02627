// How the loop drivers fail, with the real SDK clients over HTTP: typed ctxkit errors that wrap the provider's.
import Anthropic from "@anthropic-ai/sdk";
import { contextMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import { AdapterInputError, ContextOverflowError } from "@ctxkit/core";
import { contextChatCompletions } from "@ctxkit/openai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicImitation } from "./anthropic-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { readFile } from "./scripted-model.js";

let openAIServer: LoopbackServer;
let anthropicServer: LoopbackServer;
beforeAll(async () => {
  [openAIServer, anthropicServer] = await Promise.all([startOpenAIImitation(), startAnthropicImitation()]);
});
afterAll(() => Promise.all([openAIServer.close(), anthropicServer.close()]));

const huge = [readFile('{"path":"a"}'), readFile('{"path":"b"}')].join("\n");

describe("contextMessages", () => {
  it("should surface a second rejection as a ContextOverflowError wrapping Anthropic's 400", async () => {
    const client = new Anthropic({ baseURL: anthropicServer.url, apiKey: "test", maxRetries: 0 });
    // A budget far over the model's window, and a recovery that gives the same view again: the retry is rejected too.
    const context = createSimpleContext({ maxTokens: 100_000 });
    context.recoverOverflow = (_error, options) => context.getMessagesForRequest(options);
    const before = anthropicServer.requests.length;
    const rejection = contextMessages(client, context).create({
      model: "claude-sonnet-4-6",
      max_tokens: 256,
      messages: [{ role: "user", content: huge }],
    });
    const error = await rejection.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error).toMatchObject({ code: "CONTEXT_OVERFLOW", provider: "Anthropic Messages", recovered: true });
    expect((error as ContextOverflowError).cause).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((error as Error).message)).toMatch(/prompt is too long/);
    expect(anthropicServer.requests.length - before).toBe(2);
  });
});

describe("contextChatCompletions", () => {
  it("should surface the rejection as a ContextOverflowError when recovery is off", async () => {
    const client = new OpenAI({ baseURL: `${openAIServer.url}/v1`, apiKey: "test", maxRetries: 0 });
    const context = createSimpleContext({ maxTokens: 100_000 });
    const rejection = contextChatCompletions(client, context, { recoverOverflow: false }).create({
      model: "gpt-4.1-mini",
      messages: [{ role: "user", content: huge }],
    });
    const error = await rejection.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error).toMatchObject({ provider: "OpenAI Chat Completions", recovered: false });
    expect((error as ContextOverflowError).cause).toMatchObject({ status: 400, code: "context_length_exceeded" });
  });

  it("should refuse a batch with one bad message before storing any of it, and send nothing", async () => {
    const client = new OpenAI({ baseURL: `${openAIServer.url}/v1`, apiKey: "test", maxRetries: 0 });
    const context = createSimpleContext({ maxTokens: 8_192 });
    const before = openAIServer.requests.length;
    const rejection = contextChatCompletions(client, context).create({
      model: "gpt-4.1-mini",
      messages: [
        { role: "user", content: "Hi" },
        { role: "function", name: "legacy", content: "x" },
      ],
    });
    await expect(rejection).rejects.toBeInstanceOf(AdapterInputError);
    expect(await context.getMessages()).toEqual([]);
    expect(openAIServer.requests.length).toBe(before);
  });
});
