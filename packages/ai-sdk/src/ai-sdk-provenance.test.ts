import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { generateText, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { contextMiddleware } from "./context-middleware.js";
import { createContextSteps } from "./context-steps.js";
import { toModelMessages } from "./to-model-messages.js";

const usage = { inputTokens: { total: 9, noCache: 9, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };

/** A model that thinks (its reasoning signed in its provider metadata) and answers. */
function thinkingModel(provider: string, modelId: string) {
  return new MockLanguageModelV3({
    provider,
    modelId,
    doGenerate: {
      content: [
        { type: "reasoning", text: "Think first.", providerMetadata: { anthropic: { signature: `signed-by-${modelId}` } } },
        { type: "text", text: "Done." },
      ],
      finishReason: { unified: "stop", raw: undefined },
      usage,
      warnings: [],
    },
  });
}

const reasoningCount = (prompt: unknown) => JSON.stringify(prompt).split('"type":"reasoning"').length - 1;

describe("toModelMessages", () => {
  describe("targetModel", () => {
    const history: Message[] = [
      { role: "user", content: "Hi" },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Think first.", providerOptions: { anthropic: { signature: "s" } } },
          { type: "text", text: "Done." },
        ],
        metadata: { provenance: { provider: "anthropic.messages", model: "claude-sonnet-4-6" } },
      },
    ];

    it("should keep reasoning for the same provider family and model, and leave it out for another", () => {
      expect(reasoningCount(toModelMessages(history, { targetModel: { provider: "anthropic", modelId: "claude-sonnet-4-6" } }))).toBe(1);
      expect(
        reasoningCount(toModelMessages(history, { targetModel: { provider: "anthropic.messages", modelId: "claude-opus-4-1" } })),
      ).toBe(0);
      expect(reasoningCount(toModelMessages(history))).toBe(1);
    });
  });
});

describe("contextMiddleware", () => {
  it("should record the model of a response with reasoning, and give its reasoning back only to that model", async () => {
    const context = createSimpleContext({ maxTokens: 50_000, tokenizer: "estimate" });
    const middleware = contextMiddleware(context);
    const sonnet = thinkingModel("anthropic.messages", "claude-sonnet-4-6");
    const opus = thinkingModel("anthropic.messages", "claude-opus-4-1");
    await generateText({ model: wrapLanguageModel({ model: sonnet, middleware }), prompt: "One?" });
    expect((await context.getMessages())[1]!.metadata).toEqual({
      provenance: { provider: "anthropic.messages", model: "claude-sonnet-4-6" },
    });
    await generateText({ model: wrapLanguageModel({ model: opus, middleware }), prompt: "Two?" });
    await generateText({ model: wrapLanguageModel({ model: sonnet, middleware }), prompt: "Three?" });
    expect(reasoningCount(opus.doGenerateCalls[0]!.prompt)).toBe(0);
    expect(reasoningCount(sonnet.doGenerateCalls[1]!.prompt)).toBe(1);
  });

  it("should send every stored part with checkProvenance off", async () => {
    const context = createSimpleContext({ maxTokens: 50_000, tokenizer: "estimate" });
    const middleware = contextMiddleware(context, { checkProvenance: false });
    const opus = thinkingModel("anthropic.messages", "claude-opus-4-1");
    await generateText({
      model: wrapLanguageModel({ model: thinkingModel("anthropic.messages", "claude-sonnet-4-6"), middleware }),
      prompt: "One?",
    });
    await generateText({ model: wrapLanguageModel({ model: opus, middleware }), prompt: "Two?" });
    expect(reasoningCount(opus.doGenerateCalls[0]!.prompt)).toBe(1);
  });
});

describe("createContextSteps", () => {
  it("should record each step's model and give its reasoning back only to that model", async () => {
    const context = createSimpleContext({ maxTokens: 50_000, tokenizer: "estimate" });
    const sonnet = thinkingModel("anthropic.messages", "claude-sonnet-4-6");
    const opus = thinkingModel("anthropic.messages", "claude-opus-4-1");
    await generateText({ model: sonnet, prompt: "One?", ...createContextSteps(context) });
    expect((await context.getMessages()).find((message) => message.role === "assistant")!.metadata).toEqual({
      provenance: { provider: "anthropic.messages", model: "claude-sonnet-4-6" },
    });
    await generateText({ model: opus, prompt: "Two?", ...createContextSteps(context) });
    await generateText({ model: sonnet, prompt: "Three?", ...createContextSteps(context) });
    expect(reasoningCount(opus.doGenerateCalls[0]!.prompt)).toBe(0);
    expect(reasoningCount(sonnet.doGenerateCalls[1]!.prompt)).toBe(1);
  });
});

describe("contextMiddleware (regression)", () => {
  it("should store a response of a model with an empty id, recording no provenance", async () => {
    const context = createSimpleContext({ maxTokens: 50_000, tokenizer: "estimate" });
    await generateText({
      model: wrapLanguageModel({ model: thinkingModel("custom", ""), middleware: contextMiddleware(context) }),
      prompt: "One?",
    });
    const [, answer] = await context.getMessages();
    expect(answer).toMatchObject({ role: "assistant", content: [{ type: "reasoning" }, { type: "text", text: "Done." }] });
    expect(answer!.metadata).toBeUndefined();
  });
});
