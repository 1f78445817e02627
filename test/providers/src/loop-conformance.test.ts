// The kit's loop checks over HTTP: each loop with its real SDK client against the scripted provider, which holds
// every request to the kit's strict rules and answers with the usage, or the too-long rejection, each check scripts
// (for the over-counting check, per request as the kit counts it).
import { createOpenAI } from "@ai-sdk/openai";
import Anthropic from "@anthropic-ai/sdk";
import { contextMiddleware, toModelMessages } from "@ctxkit/ai-sdk";
import { contextMessages, toAnthropicMessages } from "@ctxkit/anthropic";
import { runAdapterLoopConformance, type AdapterLoop, type AdapterSubject } from "@ctxkit/conformance";
import type { ContextManager } from "@ctxkit/core";
import { contextModels, toGeminiContents } from "@ctxkit/google";
import { contextMiddleware as langchainMiddleware, toLangchainMessages } from "@ctxkit/langchain";
import { contextChatCompletions, contextResponses, toChatCompletionMessages, toResponseInputItems } from "@ctxkit/openai";
import { GoogleGenAI } from "@google/genai";
import { ChatOpenAI } from "@langchain/openai";
import { generateText, wrapLanguageModel, type LanguageModelMiddleware } from "ai";
import { createAgent, type AgentMiddleware } from "langchain";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedProvider, type ScriptedProvider } from "./scripted-provider.js";

// A few scripts per check: every call is a round trip over loopback, and the packages' own suites run the many.
const RUNS = 4;

let server: ScriptedProvider;
beforeAll(async () => {
  server = await startScriptedProvider();
});
afterAll(() => server.close());

// One middleware per conversation, as the README asks: the kit gives each conversation its own manager.
const middlewares = new WeakMap<ContextManager, LanguageModelMiddleware>();
function middlewareFor(manager: ContextManager): LanguageModelMiddleware {
  const existing = middlewares.get(manager) ?? contextMiddleware(manager);
  middlewares.set(manager, existing);
  return existing;
}

// The LangChain middleware likewise follows one conversation.
const agentMiddlewares = new WeakMap<ContextManager, AgentMiddleware>();
function agentMiddlewareFor(manager: ContextManager): AgentMiddleware {
  const existing = agentMiddlewares.get(manager) ?? langchainMiddleware(manager);
  agentMiddlewares.set(manager, existing);
  return existing;
}

const LOOPS: Record<string, AdapterLoop> = {
  contextMessages: {
    inputs: ["new"],
    carriesNonJsonNumbers: false,
    repliesPerRequest: true,
    call(manager, input, reply) {
      server.answer = reply;
      const client = new Anthropic({ baseURL: server.url, apiKey: "test", maxRetries: 0 });
      return contextMessages(client, manager).create({
        model: "claude-sonnet-4-6",
        max_tokens: 256,
        messages: toAnthropicMessages([...input], { cache: false }).messages,
      });
    },
  },
  contextChatCompletions: {
    inputs: ["new"],
    carriesNonJsonNumbers: false,
    repliesPerRequest: true,
    call(manager, input, reply) {
      server.answer = reply;
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
      return contextChatCompletions(client, manager).create({ model: "gpt-4.1-mini", messages: toChatCompletionMessages([...input]) });
    },
  },
  contextResponses: {
    inputs: ["new"],
    carriesNonJsonNumbers: false,
    repliesPerRequest: true,
    call(manager, input, reply) {
      server.answer = reply;
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
      return contextResponses(client, manager).create({ model: "gpt-4.1-mini", input: toResponseInputItems([...input]) });
    },
  },
  contextModels: {
    inputs: ["new"],
    carriesNonJsonNumbers: false,
    repliesPerRequest: true,
    call(manager, input, reply) {
      server.answer = reply;
      const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
      return contextModels(ai, manager).generateContent({ model: "gemini-2.5-flash", contents: toGeminiContents([...input]).contents });
    },
  },
  contextMiddleware: {
    inputs: ["new", "whole"],
    carriesNonJsonNumbers: false,
    repliesPerRequest: true,
    // @ai-sdk/openai checks the response with its schema: a count given as text fails the call there.
    sdkRefusesMalformedUsage: true,
    call(manager, input, reply) {
      server.answer = reply;
      const model = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "test" }).chat("gpt-4.1-mini");
      return generateText({
        model: wrapLanguageModel({ model, middleware: middlewareFor(manager) }),
        maxRetries: 0,
        messages: toModelMessages(input).messages,
      });
    },
  },
  "LangChain contextMiddleware": {
    inputs: ["new", "whole"],
    carriesNonJsonNumbers: false,
    repliesPerRequest: true,
    call(manager, input, reply) {
      server.answer = reply;
      const model = new ChatOpenAI({
        model: "gpt-4.1-mini",
        apiKey: "test",
        maxRetries: 0,
        configuration: { baseURL: `${server.url}/v1` },
      });
      return createAgent({ model, middleware: [agentMiddlewareFor(manager)] }).invoke({ messages: toLangchainMessages([...input]) });
    },
  },
};

describe("the kit's loop checks, over HTTP with the real SDK clients", () => {
  it.each(Object.entries(LOOPS))("should hold %s to what each call stored agreeing with what it returned", async (name, loop) => {
    // Only the loop is under test here: the conversions have their own suites.
    const subject: AdapterSubject = { name, toProvider: () => [], fromProvider: () => [], loop };
    const results = await runAdapterLoopConformance(subject, { runs: RUNS });
    expect(results.filter((result) => result.status === "fail").map((result) => `${result.name}: ${result.reason}`)).toEqual([]);
    expect(results.filter((result) => result.status === "pass").length).toBe(loop.inputs.length === 2 ? 4 : 3);
  });
});
