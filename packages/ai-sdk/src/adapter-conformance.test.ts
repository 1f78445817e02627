import { checkModelPrompt, replyTo, type ScriptedReply } from "@ctxkit/conformance";
import { describeAdapter } from "@ctxkit/conformance/vitest";
import type { ContextManager } from "@ctxkit/core";
import { APICallError, generateText, wrapLanguageModel, type LanguageModelMiddleware } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { contextMiddleware } from "./context-middleware.js";
import { fromModelMessages } from "./from-model-messages.js";
import { toModelMessages, type ModelPrompt } from "./to-model-messages.js";

/** A model that answers each call as the loop checks script it for its prompt: a text with its usage, or a too-long rejection. */
function scriptedModel(scripted: ScriptedReply): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const reply = replyTo(scripted, options.prompt);
      if (reply.kind === "too-long")
        throw new APICallError({
          message: "prompt is too long: 210000 tokens > 200000 maximum",
          url: "http://127.0.0.1/v1/messages",
          requestBodyValues: {},
          statusCode: 400,
          isRetryable: false,
        });
      const { usage } = reply;
      return {
        content: [{ type: "text", text: reply.text }],
        finishReason: { unified: "stop", raw: undefined },
        usage: {
          inputTokens: { total: usage?.input as number, noCache: undefined, cacheRead: usage?.cacheRead as number, cacheWrite: undefined },
          outputTokens: { total: usage?.output as number, text: undefined, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

// One middleware per conversation, as the README asks: the suite gives each conversation its own manager.
const middlewares = new WeakMap<ContextManager, LanguageModelMiddleware>();
function middlewareFor(manager: ContextManager): LanguageModelMiddleware {
  const existing = middlewares.get(manager);
  if (existing !== undefined) return existing;
  const created = contextMiddleware(manager);
  middlewares.set(manager, created);
  return created;
}

describeAdapter<ModelPrompt>("@ctxkit/ai-sdk", {
  name: "ai-sdk",
  toProvider: toModelMessages,
  // The suite also passes junk in place of a prompt, hence `?.`.
  fromProvider: (prompt) => fromModelMessages(prompt?.messages, prompt?.system === undefined ? {} : { system: prompt.system }),
  validate: checkModelPrompt,
  keepsToolErrors: true,
  // The middleware takes the new messages or the whole conversation, and a caller may switch at any call.
  loop: {
    inputs: ["new", "whole"],
    repliesPerRequest: true,
    call: (manager, input, reply) =>
      generateText({
        model: wrapLanguageModel({ model: scriptedModel(reply), middleware: middlewareFor(manager) }),
        maxRetries: 0,
        messages: toModelMessages(input).messages,
      }),
  },
});
