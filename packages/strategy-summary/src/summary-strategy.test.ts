import { ContextConfigError, ContextTimeoutError, truncate, type Message } from "@ctxkit/core";
import { createMemoryStateStore, type ViewDraft } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { assistant, call, result, system, toolUnit, turn, user } from "../test/messages.js";
import { recordingSummarizer } from "../test/recording-summarizer.js";
import { appendToView, createFreshView, createTestContext, describeView, freezeHistory } from "../test/strategy-context.js";
import type { SummaryMetadata } from "./summary-message.js";
import { createSummaryStrategy } from "./summary-strategy.js";
import type { SummaryStrategyOptions } from "./options.js";

const small: SummaryStrategyOptions = { keepRecentTokens: 300, minNewTokens: 1, maxSummaryTokens: 40 };

function summaryOf(view: ViewDraft): { message: Message; metadata: SummaryMetadata } {
  const entry = view.entries.find((candidate) => candidate.source.kind === "synthetic" && candidate.source.origin === "summary")!;
  return { message: entry.message, metadata: entry.message.metadata!.ctxkit!["summary"] as SummaryMetadata };
}

const sessionOf = (turns: number, from = 0) => Array.from({ length: turns }, (_, index) => turn(from + index, 2)).flat();

describe("createSummaryStrategy", () => {
  describe("output", () => {
    it("should put one user message, <summary>…</summary>, where the summarized span began", async () => {
      const history = freezeHistory([system("rules"), ...sessionOf(6)]);
      const strategy = createSummaryStrategy({ ...small, summarizer: recordingSummarizer(() => "They fixed the parser.") });
      const { view, applied } = await strategy.apply(createFreshView(history), createTestContext({ history }));
      expect(applied).toBe(true);
      expect(describeView(view).slice(0, 2)).toEqual([0, "S"]);
      const { message, metadata } = summaryOf(view);
      expect(message.role).toBe("user");
      expect(message.content).toMatch(/^<summary>\nThey fixed the parser\.\n<read-files>\n[\s\S]*\n<\/read-files>\n<\/summary>$/);
      const covered = view.entries.findIndex((entry) => entry.source.kind === "history" && entry.source.index > 0);
      expect(metadata.coveredThrough).toBe((view.entries[covered]!.source as { index: number }).index - 1);
      expect(metadata.tokensAfter).toBe(view.entries[1]!.tokens);
      expect(metadata.tokensBefore).toBeGreaterThan(metadata.tokensAfter);
      expect(metadata.readFiles).toContain("t0_0.txt");
      expect(metadata.modifiedFiles).toEqual([]);
    });

    it("should strip <summary> tags the summarizer added itself, and hold it to maxSummaryTokens", async () => {
      const history = freezeHistory(sessionOf(6));
      const strategy = createSummaryStrategy({ ...small, summarizer: async () => `<summary>${"word ".repeat(500)}</summary>` });
      const { view } = await strategy.apply(createFreshView(history), createTestContext({ history }));
      const content = summaryOf(view).message.content as string;
      expect(content.match(/<summary>/g)).toHaveLength(1);
      expect(content).toContain("characters not shown");
      expect(content.length).toBeLessThan(400);
    });
  });

  describe("incremental checkpoints", () => {
    it("should send the previous summary exactly once, and only the newly covered messages", async () => {
      const summarizer = recordingSummarizer();
      const strategy = createSummaryStrategy({ ...small, summarizer });
      const firstHistory = freezeHistory(sessionOf(6));
      const first = await strategy.apply(
        createFreshView(firstHistory),
        createTestContext({ history: firstHistory, state: createMemoryStateStore() }),
      );
      const history = [...firstHistory, ...freezeHistory(sessionOf(6, 6))];
      const state = createMemoryStateStore();
      const second = await strategy.apply(appendToView(first.view, history, firstHistory.length), createTestContext({ history, state }));
      expect(second.applied).toBe(true);
      expect(summarizer.requests).toHaveLength(2);
      const [firstRequest, secondRequest] = summarizer.requests as [(typeof summarizer.requests)[0], (typeof summarizer.requests)[0]];
      expect(firstRequest.previousSummary).toBeUndefined();
      expect(secondRequest.previousSummary).toBe(`summary #1 of ${firstRequest.messages.length} messages`);
      const seen = new Set(firstRequest.messages);
      expect(secondRequest.messages.some((message) => seen.has(message))).toBe(false);
      expect(JSON.stringify(secondRequest.messages)).not.toContain("summary #1");
      // Together they cover the history up to the new summary's end, each message once.
      const coveredThrough = summaryOf(second.view).metadata.coveredThrough;
      expect(firstRequest.messages.length + secondRequest.messages.length).toBe(coveredThrough + 1);
      expect(describeView(second.view)[0]).toBe("S");
    });

    it("should carry the file lists over from one checkpoint to the next", async () => {
      const strategy = createSummaryStrategy({ ...small, summarizer: recordingSummarizer() });
      const firstHistory = freezeHistory([
        ...sessionOf(4),
        user("edit"),
        call("Edit", ["e1"], { file_path: "t0_0.txt" }),
        result("e1", "ok"),
        ...sessionOf(3, 4),
      ]);
      const first = await strategy.apply(createFreshView(firstHistory), createTestContext({ history: firstHistory }));
      const history = [...firstHistory, ...freezeHistory(sessionOf(6, 7))];
      const second = await strategy.apply(appendToView(first.view, history, firstHistory.length), createTestContext({ history }));
      const { readFiles, modifiedFiles } = summaryOf(second.view).metadata;
      expect(modifiedFiles).toEqual(["t0_0.txt"]);
      expect(readFiles).toContain("t0_1.txt");
      expect(readFiles).toContain("t7_0.txt");
      expect(readFiles).not.toContain("t0_0.txt");
    });

    it("should reuse a cached checkpoint for a fresh draft of the same history without calling the summarizer", async () => {
      const summarizer = recordingSummarizer();
      const strategy = createSummaryStrategy({ ...small, summarizer });
      const history = freezeHistory(sessionOf(8));
      const state = createMemoryStateStore();
      const first = await strategy.apply(createFreshView(history), createTestContext({ history, state }));
      const again = await strategy.apply(createFreshView(history), createTestContext({ history, state }));
      expect(summarizer.requests).toHaveLength(1);
      expect(again.view.entries.map((entry) => entry.message)).toEqual(first.view.entries.map((entry) => entry.message));
    });

    it("should extend a cached checkpoint with only the newer messages when the history grew", async () => {
      const summarizer = recordingSummarizer();
      const strategy = createSummaryStrategy({ ...small, summarizer });
      const earlier = freezeHistory(sessionOf(8));
      const state = createMemoryStateStore();
      await strategy.apply(createFreshView(earlier), createTestContext({ history: earlier, state }));
      const history = [...earlier, ...freezeHistory(sessionOf(4, 8))];
      await strategy.apply(createFreshView(history), createTestContext({ history, state }));
      expect(summarizer.requests).toHaveLength(2);
      expect(summarizer.requests[1]!.previousSummary).toBe(`summary #1 of ${summarizer.requests[0]!.messages.length} messages`);
      expect(summarizer.requests[1]!.messages.every((message) => !summarizer.requests[0]!.messages.includes(message))).toBe(true);
    });

    it("should not reuse a checkpoint once the history it covers has changed", async () => {
      const summarizer = recordingSummarizer();
      const strategy = createSummaryStrategy({ ...small, summarizer });
      const state = createMemoryStateStore();
      const original = freezeHistory(sessionOf(8));
      await strategy.apply(createFreshView(original), createTestContext({ history: original, state }));
      const edited = freezeHistory([user("a different start"), ...sessionOf(8).slice(1)]);
      await strategy.apply(createFreshView(edited), createTestContext({ history: edited, state }));
      expect(summarizer.requests).toHaveLength(2);
      expect(summarizer.requests[1]!.previousSummary).toBeUndefined();
    });

    it("should not reuse a checkpoint that stands for a message this draft must keep verbatim", async () => {
      const summarizer = recordingSummarizer();
      const strategy = createSummaryStrategy({ ...small, summarizer });
      const history = freezeHistory(sessionOf(8));
      const state = createMemoryStateStore();
      await strategy.apply(createFreshView(history), createTestContext({ history, state }));
      const { view } = await strategy.apply(createFreshView(history), createTestContext({ history, state, protectFirst: 2 }));
      expect(summarizer.requests).toHaveLength(2);
      expect(summarizer.requests[1]!.previousSummary).toBeUndefined();
      // Message 1 opens a tool unit, so that unit stays whole.
      expect(describeView(view).slice(0, 4)).toEqual([0, 1, 2, "S"]);
    });

    it("should take in a message a reused checkpoint left verbatim once nothing keeps it, so truncate cannot drop it from under the summary (regression)", async () => {
      const summarizer = recordingSummarizer();
      const strategy = createSummaryStrategy({ keepRecentTokens: 10, minNewTokens: 200, maxSummaryTokens: 40, summarizer });
      const state = createMemoryStateStore();
      // The task is the latest user message, so the first checkpoint covers the tool units after it and leaves it verbatim.
      const earlier = freezeHistory([user("the task"), ...toolUnit("a", 2_000), ...toolUnit("b", 2_000), assistant("done")]);
      await strategy.apply(createFreshView(earlier), createTestContext({ history: earlier, state }));
      expect(summarizer.requests[0]!.messages).not.toContain(earlier[0]);
      // A new user message unprotects the task; too little else is new to be worth a call on its own.
      const history = [...earlier, ...freezeHistory([user("next")])];
      const summarized = await strategy.apply(createFreshView(history), createTestContext({ history, state }));
      // One token over: truncate drops the oldest unit it may, and a summary only when nothing else is left.
      const { view } = truncate().apply(summarized.view, createTestContext({ history, target: summarized.view.tokens - 1 })) as {
        view: ViewDraft;
      };
      const { coveredThrough } = summaryOf(view).metadata;
      const sent = summarizer.requests.flatMap((request) => request.messages);
      const held = new Set(describeView(view));
      const lost = history.slice(0, coveredThrough + 1).filter((message, index) => !held.has(index) && !sent.includes(message));
      expect(lost).toEqual([]);
      expect(sent).toContain(history[0]);
    });

    it("should give the same view from a fresh draft whether or not checkpoints were cached (extractive)", async () => {
      const history = freezeHistory(sessionOf(12));
      const cached = createSummaryStrategy(small);
      const state = createMemoryStateStore();
      const prefix = history.slice(0, 24);
      await cached.apply(createFreshView(prefix), createTestContext({ history: prefix, state }));
      const withCache = await cached.apply(createFreshView(history), createTestContext({ history, state }));
      const withoutCache = await createSummaryStrategy(small).apply(createFreshView(history), createTestContext({ history }));
      expect(withCache.view.entries.map((entry) => entry.message)).toEqual(withoutCache.view.entries.map((entry) => entry.message));
    });
  });

  describe("when not to summarize", () => {
    it("should not call the summarizer for fewer new tokens than minNewTokens", async () => {
      const summarizer = recordingSummarizer();
      const strategy = createSummaryStrategy({ ...small, minNewTokens: 400, summarizer });
      const firstHistory = freezeHistory(sessionOf(6));
      const first = await strategy.apply(createFreshView(firstHistory), createTestContext({ history: firstHistory }));
      const history = [...firstHistory, ...freezeHistory(turn(6, 1))];
      const trickle = await strategy.apply(appendToView(first.view, history, firstHistory.length), createTestContext({ history }));
      expect(summarizer.requests).toHaveLength(1);
      expect(trickle.applied).toBe(false);
    });

    it("should not apply, nor call the summarizer, when the summary could not save tokens", async () => {
      const summarizer = recordingSummarizer();
      const history = freezeHistory([user("hi"), ...toolUnit("a", 40), ...toolUnit("b", 40)]);
      const result = await createSummaryStrategy({ keepRecentTokens: 0, minNewTokens: 0, maxSummaryTokens: 500, summarizer }).apply(
        createFreshView(history),
        createTestContext({ history }),
      );
      expect(result.applied).toBe(false);
      expect(summarizer.requests).toHaveLength(0);
    });
  });

  describe("failures", () => {
    it("should emit context:strategy_error, keep the draft and let no error text into the view", async () => {
      const history = freezeHistory(sessionOf(6));
      const view = createFreshView(history);
      const context = createTestContext({ history });
      const strategy = createSummaryStrategy({ ...small, summarizer: async () => Promise.reject(new Error("rate limited: SECRET")) });
      const result = await strategy.apply(view, context);
      expect(result).toEqual({ view, applied: false });
      expect(JSON.stringify(result.view.entries)).not.toContain("SECRET");
      expect(context.events).toEqual([
        {
          event: "context:strategy_error",
          payload: { strategy: "summary", error: new Error("rate limited: SECRET"), consecutiveFailures: 1 },
        },
      ]);
    });

    it("should give up on a summarizer that never answers after timeoutMs, abort its signal and count a failure (regression)", async () => {
      const history = freezeHistory(sessionOf(6));
      const view = createFreshView(history);
      const context = createTestContext({ history });
      const signals: AbortSignal[] = [];
      const strategy = createSummaryStrategy({
        ...small,
        timeoutMs: 20,
        summarizer: ({ signal }) => (signals.push(signal), new Promise<string>(() => {})),
      });
      const result = await strategy.apply(view, context);
      expect(result).toEqual({ view, applied: false });
      const failure = context.events[0]!.payload as { error: unknown; consecutiveFailures: number };
      expect(failure.error).toBeInstanceOf(ContextTimeoutError);
      expect(failure.consecutiveFailures).toBe(1);
      expect(signals[0]!.aborted).toBe(true);
    });

    it("should refuse a timeoutMs of 2^31 ms, which Node would run after 1 ms, naming the option and the limit (regression)", () => {
      expect(() => createSummaryStrategy({ timeoutMs: 2 ** 31 })).toThrow(ContextConfigError);
      expect(() => createSummaryStrategy({ timeoutMs: 2 ** 31 })).toThrow(/timeoutMs.*2147483647/);
    });

    it("should stop calling after failureThreshold failures, then try once after cooldownRequests", async () => {
      const summarizer = recordingSummarizer(() => {
        throw new Error("down");
      });
      const strategy = createSummaryStrategy({ ...small, summarizer, failureThreshold: 2, cooldownRequests: 2 });
      const history = freezeHistory(sessionOf(6));
      const callsAfterEachRequest: number[] = [];
      const context = createTestContext({ history });
      for (let request = 0; request < 7; request += 1) {
        await strategy.apply(createFreshView(history), context);
        callsAfterEachRequest.push(summarizer.requests.length);
      }
      expect(callsAfterEachRequest).toEqual([1, 2, 2, 2, 3, 3, 3]);
      expect(context.events.map((event) => (event.payload as { consecutiveFailures: number }).consecutiveFailures)).toEqual([1, 2, 3]);
    });

    it("should rethrow when the request is aborted during the summarizer call, and keep no result", async () => {
      const controller = new AbortController();
      const history = freezeHistory(sessionOf(6));
      const strategy = createSummaryStrategy({
        ...small,
        summarizer: ({ signal }) =>
          new Promise((_, reject) => {
            signal.addEventListener("abort", () => reject(signal.reason));
            controller.abort(new Error("user cancelled"));
          }),
      });
      const context = createTestContext({ history, signal: controller.signal });
      await expect(strategy.apply(createFreshView(history), context)).rejects.toThrow("user cancelled");
      expect(context.events.map((event) => event.event)).toEqual(["context:strategy_error"]);
      expect(context.state.keys()).toEqual([]);
    });
  });
});
