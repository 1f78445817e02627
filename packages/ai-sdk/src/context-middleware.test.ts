import type { ContextManager } from "@ctxkit/core";
import { createSimpleContext } from "@ctxkit/context-simple";
import { APICallError, generateText, stepCountIs, streamText, ToolLoopAgent, wrapLanguageModel, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it, vi } from "vitest";
import {
  createScriptedModel,
  createSmallManager,
  expectValidPrompt,
  failOnAiSdkWarnings,
  QUESTIONS,
  reportedTokens,
  SYSTEM,
  tools,
} from "../test/__fixtures__/scripted-agent.js";
import { contextMiddleware } from "./context-middleware.js";
import { fromModelMessages } from "./from-model-messages.js";

failOnAiSdkWarnings();

async function runTurns(resend: "whole conversation" | "new messages only", run: typeof generateText | "stream") {
  const { manager, events } = createSmallManager();
  const reportUsage = vi.spyOn(manager, "reportUsage");
  const model = createScriptedModel();
  const wrapped = wrapLanguageModel({ model, middleware: contextMiddleware(manager as ContextManager) });
  const conversation: ModelMessage[] = [];
  for (const question of QUESTIONS) {
    const user: ModelMessage = { role: "user", content: question };
    const messages = resend === "whole conversation" ? [...conversation, user] : [user];
    const options = { model: wrapped, system: SYSTEM, tools, messages, stopWhen: stepCountIs(5) };
    const response = run === "stream" ? await streamText(options).response : (await generateText(options)).response;
    conversation.push(user, ...response.messages);
  }
  const prompts = run === "stream" ? model.doStreamCalls.map((call) => call.prompt) : model.doGenerateCalls.map((call) => call.prompt);
  return { manager, events, reportUsage, prompts, conversation };
}

describe("contextMiddleware", () => {
  describe.each(["whole conversation", "new messages only"] as const)("when the caller sends the %s", (resend) => {
    it("should give every model call a valid, pair-safe prompt, and compact when the budget requires it", async () => {
      const { prompts, events, conversation } = await runTurns(resend, generateText);
      expect(prompts).toHaveLength(QUESTIONS.length * 3);
      for (const prompt of prompts) await expectValidPrompt(prompt);
      expect(events).toContain("context:post_compact");
      // Compaction shows: the last prompt holds fewer messages than the conversation.
      expect(prompts.at(-1)!.length - 1).toBeLessThan(conversation.length);
    });

    it("should keep every message of the conversation in the manager's history, once", async () => {
      const { manager, conversation } = await runTurns(resend, generateText);
      expect(await manager.getMessages()).toEqual(fromModelMessages(conversation));
    });

    it("should tell the manager each call's model, so a later summary knows whose prompt cache holds the view", async () => {
      const { manager } = createSmallManager();
      const viewFor = vi.spyOn(manager, "getMessagesForRequest");
      const model = createScriptedModel();
      const wrapped = wrapLanguageModel({ model, middleware: contextMiddleware(manager as ContextManager) });
      await generateText({
        model: wrapped,
        system: SYSTEM,
        tools,
        messages: [{ role: "user", content: QUESTIONS[0]! }],
        stopWhen: stepCountIs(5),
      });
      expect(viewFor).toHaveBeenCalled();
      for (const [options] of viewFor.mock.calls) expect(options).toMatchObject({ model: model.modelId });
    });

    it("should report the provider's usage of every call to the manager", async () => {
      const { reportUsage, prompts } = await runTurns(resend, generateText);
      expect(reportUsage.mock.calls.map(([usage]) => usage)).toEqual(
        prompts.map((prompt) => ({ inputTokens: reportedTokens(prompt), outputTokens: 7 })),
      );
    });
  });

  it("should do the same for streamText", async () => {
    const { manager, prompts, conversation, reportUsage } = await runTurns("new messages only", "stream");
    expect(prompts).toHaveLength(QUESTIONS.length * 3);
    for (const prompt of prompts) await expectValidPrompt(prompt);
    expect(await manager.getMessages()).toEqual(fromModelMessages(conversation));
    expect(reportUsage).toHaveBeenCalledTimes(prompts.length);
  });

  it("should work inside a ToolLoopAgent", async () => {
    const { manager } = createSmallManager();
    const model = createScriptedModel();
    const agent = new ToolLoopAgent({
      model: wrapLanguageModel({ model, middleware: contextMiddleware(manager) }),
      instructions: SYSTEM,
      tools,
      stopWhen: stepCountIs(5),
    });
    const conversation: ModelMessage[] = [];
    for (const question of QUESTIONS) {
      const { response } = await agent.generate({ prompt: question });
      conversation.push({ role: "user", content: question }, ...response.messages);
    }
    for (const call of model.doGenerateCalls) await expectValidPrompt(call.prompt);
    expect(await manager.getMessages()).toEqual(fromModelMessages(conversation));
  });

  it("should keep the prompt prefix byte-stable between compactions (cache-stable)", async () => {
    const { prompts, events } = await runTurns("new messages only", generateText);
    const changed = prompts.slice(1).filter((prompt, index) => {
      const previous = prompts[index]!;
      return JSON.stringify(prompt.slice(0, previous.length)) !== JSON.stringify(previous);
    });
    // Only a compaction may change what was sent before: every other call extends the previous prompt. (At this
    // 900-token budget the default compacts 5 times in 12 calls, its note of dropped identifiers taking room.)
    const compactions = events.filter((event) => event === "context:post_compact").length;
    expect(compactions).toBeGreaterThan(0);
    expect(changed.length).toBeLessThanOrEqual(compactions);
    expect(changed.length).toBeLessThan(prompts.length - 1);
  });

  describe("recoverOverflow", () => {
    // The model takes less than the manager believes: it rejects long prompts, as a provider would.
    const LIMIT = 1_200;
    function createStrictModel() {
      const model = createScriptedModel();
      const inner = model.doGenerate;
      let overflows = 0;
      model.doGenerate = async (options) => {
        if (reportedTokens(options.prompt) > LIMIT) {
          overflows += 1;
          throw new APICallError({
            message: `This model's maximum context length is ${LIMIT} tokens.`,
            url: "https://api.test",
            requestBodyValues: {},
            statusCode: 400,
          });
        }
        return inner(options);
      };
      return { model, overflows: () => overflows };
    }

    async function run(recoverOverflow: boolean) {
      const manager = createSimpleContext({ maxTokens: 3_000, tokenizer: "estimate" });
      const { model, overflows } = createStrictModel();
      const wrapped = wrapLanguageModel({ model, middleware: contextMiddleware(manager, { recoverOverflow }) });
      for (const question of QUESTIONS)
        await generateText({ model: wrapped, system: SYSTEM, tools, prompt: question, stopWhen: stepCountIs(5), maxRetries: 0 });
      return { manager, overflows: overflows() };
    }

    it("should retry a call the provider rejected as too long on the manager's smaller view", async () => {
      const { overflows } = await run(true);
      expect(overflows).toBeGreaterThan(0);
    });

    it("should let the error through when turned off", async () => {
      await expect(run(false)).rejects.toThrow(/maximum context length/);
    });
  });

  // (regression) A failed call left its prompt in the manager, so the caller's retry stored it a second time.
  describe("a call that fails", () => {
    const serverError = () =>
      new APICallError({
        message: "Internal server error",
        url: "https://api.test",
        requestBodyValues: {},
        statusCode: 500,
        isRetryable: false,
      });
    const finish = {
      type: "finish" as const,
      finishReason: { unified: "stop" as const, raw: undefined },
      usage: { inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
    };
    const answered = {
      content: [{ type: "text" as const, text: "Hello." }],
      finishReason: finish.finishReason,
      usage: finish.usage,
      warnings: [],
    };

    it("should store nothing from a generate call that throws, and the turn once when it is sent again", async () => {
      const manager = createSimpleContext({ maxTokens: 8_000, tokenizer: "estimate" });
      let fail = true;
      const model = new MockLanguageModelV3({
        doGenerate: async () => {
          if (fail) throw serverError();
          return answered;
        },
      });
      const wrapped = wrapLanguageModel({ model, middleware: contextMiddleware(manager) });
      await expect(generateText({ model: wrapped, prompt: "Hi", maxRetries: 0 })).rejects.toThrow(/Internal server error/);
      expect(await manager.getMessages()).toEqual([]);
      fail = false;
      await generateText({ model: wrapped, prompt: "Hi", maxRetries: 0 });
      expect((await manager.getMessages()).map((message) => message.role)).toEqual(["user", "assistant"]);
    });

    it("should store nothing from a stream that reports an error, nor from one that never starts", async () => {
      const manager = createSimpleContext({ maxTokens: 8_000, tokenizer: "estimate" });
      let start = false;
      const model = new MockLanguageModelV3({
        doStream: async () => {
          if (!start) throw serverError();
          return {
            stream: new ReadableStream({
              start(controller) {
                controller.enqueue({ type: "stream-start", warnings: [] });
                controller.enqueue({ type: "error", error: serverError() });
                controller.enqueue(finish);
                controller.close();
              },
            }),
          };
        },
      });
      const wrapped = wrapLanguageModel({ model, middleware: contextMiddleware(manager) });
      await expect(
        streamText({ model: wrapped, prompt: "Hi", maxRetries: 0, onError: () => {} }).consumeStream({ onError: () => {} }),
      ).resolves.toBeUndefined();
      expect(await manager.getMessages()).toEqual([]);
      start = true;
      await streamText({ model: wrapped, prompt: "Hi", maxRetries: 0, onError: () => {} }).consumeStream({ onError: () => {} });
      expect(await manager.getMessages()).toEqual([]);
    });

    // streamText reads the model's stream for its own results too, so a `break` out of textStream leaves it running:
    // the abort signal is how a caller leaves it.
    describe("a stream the caller aborts midway", () => {
      const stalling = () =>
        new MockLanguageModelV3({
          doStream: async ({ abortSignal }) => ({
            // Half an answer, then nothing until the caller leaves: an aborted request errors, as a provider's fetch does.
            stream: new ReadableStream({
              start(controller) {
                controller.enqueue({ type: "stream-start", warnings: [] });
                controller.enqueue({ type: "text-start", id: "t" });
                controller.enqueue({ type: "text-delta", id: "t", delta: "Hel" });
                abortSignal?.addEventListener("abort", () => controller.error(abortSignal.reason), { once: true });
              },
            }),
          }),
        });
      const before = [
        { role: "user" as const, content: "Earlier." },
        { role: "assistant" as const, content: "Noted." },
      ];

      it("should leave the manager as it was before the call when the signal aborts", async () => {
        const manager = createSimpleContext({ maxTokens: 8_000, tokenizer: "estimate" });
        await manager.setMessages(before);
        const wrapped = wrapLanguageModel({ model: stalling(), middleware: contextMiddleware(manager) });
        const controller = new AbortController();
        const result = streamText({ model: wrapped, prompt: "Hi", maxRetries: 0, abortSignal: controller.signal, onError: () => {} });
        const read: string[] = [];
        for await (const text of result.textStream) {
          read.push(text);
          controller.abort();
        }
        expect(read).toEqual(["Hel"]);
        expect(await manager.getMessages()).toEqual(before);
      });
    });
  });
});
