import { createContextManager, type Message } from "@ctxkit/core";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { createSimpleContext, MemoryMessageStore } from "@ctxkit/context-simple";
import { describe, expect, it } from "vitest";
import { recordingSummarizer } from "../test/recording-summarizer.js";
import { createSessionMemoryStrategy } from "./session-memory.js";

/** The budgets here are small: the earlier compaction threshold and target leave room beside the summary for what the tests look at. */
const RATIOS = { compactThreshold: 0.92, targetRatio: 0.6 };

const history: Message[] = [systemMessage("be brief"), ...Array.from({ length: 12 }, (_, turn) => sampleTurn(turn, 600)).flat()];
const options = { updateEveryTokens: 500, keepRecentMessages: 8 };

const summaryOf = (view: readonly Message[]) => view.find((message) => message.metadata?.ctxkit?.source === "summary");

describe("session-memory", () => {
  describe("observe", () => {
    it("should update the memory between requests, and swap it in at compaction without calling the summarizer", async () => {
      const summarizer = recordingSummarizer();
      const manager = createSimpleContext({
        ...RATIOS,
        tokenizer: "estimate",
        strategies: [createSessionMemoryStrategy({ summarizer, ...options }), "truncate"],
      });
      await manager.setMessages(history);
      await manager.getMessagesForRequest({ tokenBudget: 100_000 });
      await manager.flushBackground();
      expect(summarizer.requests).toHaveLength(1);
      // Everything but the newest 8 messages (two turns), cut at a unit boundary.
      expect(summarizer.requests[0]!.messages).toHaveLength(history.length - 8);
      expect(summarizer.requests[0]!.previousSummary).toBeUndefined();

      const view = await manager.getMessagesForRequest({ tokenBudget: 900 });
      expect(summarizer.requests).toHaveLength(1);
      expect(summaryOf(view)?.content).toContain("summary #1 of 41 messages");
      expect(view.slice(-8)).toEqual(history.slice(-8));
      expect(view[0]).toEqual(history[0]);
      await manager.close();
    });

    it("should extend the memory with only the newer messages, and wait for the threshold", async () => {
      const summarizer = recordingSummarizer();
      const manager = createSimpleContext({
        ...RATIOS,
        tokenizer: "estimate",
        strategies: [createSessionMemoryStrategy({ summarizer, ...options }), "truncate"],
      });
      await manager.setMessages(history);
      await manager.getMessagesForRequest({ tokenBudget: 100_000 });
      await manager.flushBackground();
      for (const message of sampleTurn(12, 20)) await manager.addMessage(message);
      await manager.getMessagesForRequest({ tokenBudget: 100_000 });
      await manager.flushBackground();
      expect(summarizer.requests).toHaveLength(1); // four small messages are under updateEveryTokens
      for (const turn of [13, 14, 15]) for (const message of sampleTurn(turn, 600)) await manager.addMessage(message);
      await manager.getMessagesForRequest({ tokenBudget: 100_000 });
      await manager.flushBackground();
      expect(summarizer.requests).toHaveLength(2);
      expect(summarizer.requests[1]!.previousSummary).toBe("summary #1 of 41 messages");
      expect(summarizer.requests[1]!.messages[0]).toEqual(history[41]);
      await manager.close();
    });
  });

  describe("close", () => {
    it("should finish while the summarizer ignores its abort signal and never answers (regression)", async () => {
      let calls = 0;
      const summarizer = () => {
        calls += 1;
        return new Promise<string>(() => {});
      };
      const manager = createSimpleContext({
        ...RATIOS,
        tokenizer: "estimate",
        strategies: [createSessionMemoryStrategy({ summarizer, ...options }), "truncate"],
      });
      await manager.setMessages(history);
      await manager.getMessagesForRequest({ tokenBudget: 100_000 });
      await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toBe(1);
      // The guard only turns a hang into a failure; close() settles at once once it gives the work up.
      const guard = new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 10_000).unref());
      expect(await Promise.race([manager.close().then(() => "closed" as const), guard])).toBe("closed");
    });
  });

  describe("state", () => {
    it("should keep the memory in the session's state, and ignore it once the history no longer matches", async () => {
      const summarizer = recordingSummarizer();
      const store = new MemoryMessageStore();
      const strategies = () => [createSessionMemoryStrategy({ summarizer, ...options }), "truncate" as const];
      const first = await createContextManager({ store, ...RATIOS, tokenizer: "estimate", strategies: strategies() });
      await first.setMessages(history);
      await first.getMessagesForRequest({ tokenBudget: 100_000 });
      await first.flushBackground();
      await first.close();

      const second = await createContextManager({ store, ...RATIOS, tokenizer: "estimate", strategies: strategies() });
      expect(summaryOf(await second.getMessagesForRequest({ tokenBudget: 900 }))).toBeDefined();
      expect(summarizer.requests).toHaveLength(1);
      await second.clear();
      await second.setMessages([systemMessage("another"), ...history.slice(1)]);
      expect(summaryOf(await second.getMessagesForRequest({ tokenBudget: 900 }))).toBeUndefined();
      await second.close();
    });

    it("should report a failing summarizer as a strategy error and keep serving requests", async () => {
      const errors: unknown[] = [];
      const summarizer = recordingSummarizer(() => {
        throw new Error("provider down");
      });
      const manager = createSimpleContext({
        ...RATIOS,
        tokenizer: "estimate",
        strategies: [createSessionMemoryStrategy({ summarizer, ...options }), "truncate"],
        onEvent: (event, payload) => void (event === "context:strategy_error" && errors.push(payload)),
      });
      await manager.setMessages(history);
      await manager.getMessagesForRequest({ tokenBudget: 100_000 });
      await manager.flushBackground();
      expect(errors).toEqual([expect.objectContaining({ strategy: "session-memory" })]);
      expect(summaryOf(await manager.getMessagesForRequest({ tokenBudget: 900 }))).toBeUndefined();
      await manager.close();
    });
  });
});
