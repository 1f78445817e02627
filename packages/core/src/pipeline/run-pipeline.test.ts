import { describe, expect, it } from "vitest";
import { assistantMessage, createTestContext, createTestView, userMessage } from "../../test/strategy-context.js";
import { CircuitBreaker } from "./circuit-breaker.js";
import { runPipeline } from "./run-pipeline.js";
import type { Strategy, ViewDraft } from "./strategy.js";
import { createViewDraft } from "./view-draft.js";

const view = createTestView([
  userMessage("first"),
  assistantMessage("a".repeat(400)),
  assistantMessage("b".repeat(400)),
  userMessage("now"),
]);

/** Drops the oldest entry, and records that it ran. */
function dropFirst(name: string, calls: string[] = []): Strategy {
  return {
    name,
    apply(input: ViewDraft) {
      calls.push(name);
      return { view: createViewDraft(input.entries.slice(1)), applied: true };
    },
  };
}

function failing(name: string, calls: string[] = []): Strategy {
  return {
    name,
    async apply() {
      calls.push(name);
      throw new Error(`${name} broke`);
    },
  };
}

describe("runPipeline", () => {
  describe("target", () => {
    it("should run nothing when the view is already at or below the target", async () => {
      const calls: string[] = [];
      const result = await runPipeline(view, [dropFirst("one", calls)], createTestContext({ target: view.tokens }));
      expect(calls).toEqual([]);
      expect(result).toEqual({ view, steps: [] });
    });

    it("should stop as soon as the view is at or below the target", async () => {
      const calls: string[] = [];
      const target = view.tokens - view.entries[0]!.tokens;
      const result = await runPipeline(view, [dropFirst("one", calls), dropFirst("two", calls)], createTestContext({ target }));
      expect(calls).toEqual(["one"]);
      expect(result.view.entries).toEqual(view.entries.slice(1));
    });
  });

  describe("steps", () => {
    it("should record one step per strategy run, with tokens before and after", async () => {
      const result = await runPipeline(view, [dropFirst("one"), dropFirst("two")], createTestContext());
      expect(result.steps.map(({ durationMs: _durationMs, ...step }) => step)).toEqual([
        { strategy: "one", applied: true, tokensBefore: view.tokens, tokensAfter: view.tokens - view.entries[0]!.tokens },
        { strategy: "two", applied: true, tokensBefore: view.tokens - view.entries[0]!.tokens, tokensAfter: result.view.tokens },
      ]);
      expect(result.steps.every((step) => step.durationMs >= 0)).toBe(true);
    });
  });

  describe("failing strategies", () => {
    it("should skip a throwing strategy, emit context:strategy_error and go on with the next", async () => {
      const context = createTestContext();
      const result = await runPipeline(view, [failing("broken"), dropFirst("next")], context);
      expect(result.view.entries).toEqual(view.entries.slice(1));
      expect(result.steps[0]).toMatchObject({ strategy: "broken", applied: false, tokensAfter: view.tokens, skipped: "error" });
      expect(context.events).toEqual([
        { event: "context:strategy_error", payload: { strategy: "broken", error: new Error("broken broke"), consecutiveFailures: 1 } },
      ]);
    });

    it("should discard a result that grows the view (a strategy must never grow it)", async () => {
      const growing: Strategy = {
        name: "growing",
        apply: (input) => ({ view: createViewDraft([...input.entries, ...input.entries]), applied: true }),
      };
      const context = createTestContext();
      const result = await runPipeline(view, [growing], context);
      expect(result.view).toBe(view);
      expect(result.steps[0]).toMatchObject({ skipped: "error", tokensAfter: view.tokens });
      expect(context.events[0]?.event).toBe("context:strategy_error");
    });

    it("should treat a result without a draft as an error", async () => {
      const empty = { name: "empty", apply: () => undefined } as unknown as Strategy;
      const result = await runPipeline(view, [empty], createTestContext());
      expect(result.steps[0]?.skipped).toBe("error");
    });
  });

  describe("breaker", () => {
    it("should open after the threshold, skip during the cool-down, then try once (half-open)", async () => {
      const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownRequests: 2 });
      const calls: string[] = [];
      const context = createTestContext();
      const skips: (string | undefined)[] = [];
      for (let run = 0; run < 5; run += 1) {
        const result = await runPipeline(view, [failing("summary", calls)], context, { breaker });
        skips.push(result.steps[0]?.skipped);
      }
      expect(skips).toEqual(["error", "error", "circuit_open", "circuit_open", "error"]);
      expect(calls).toHaveLength(3);
      expect(context.events.map((event) => (event.payload as { consecutiveFailures: number }).consecutiveFailures)).toEqual([1, 2, 3]);
    });

    it("should close again after a successful half-open trial", async () => {
      const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownRequests: 0 });
      let isBroken = true;
      const flaky: Strategy = {
        name: "flaky",
        apply: (input) => {
          if (isBroken) throw new Error("down");
          return { view: input, applied: false };
        },
      };
      await runPipeline(view, [flaky], createTestContext(), { breaker });
      isBroken = false;
      const result = await runPipeline(view, [flaky], createTestContext(), { breaker });
      expect(result.steps[0]?.skipped).toBeUndefined();
      expect(breaker.state("flaky")).toBe("closed");
    });
  });

  describe("signal", () => {
    it("should throw the signal's reason when aborted before it starts", async () => {
      const controller = new AbortController();
      controller.abort(new Error("cancelled"));
      await expect(runPipeline(view, [dropFirst("one")], createTestContext({ signal: controller.signal }))).rejects.toThrow("cancelled");
    });

    it("should throw the reason, not report a strategy error, when a strategy is aborted mid-way", async () => {
      const controller = new AbortController();
      const breaker = new CircuitBreaker({ failureThreshold: 1 });
      const aborting: Strategy = {
        name: "aborting",
        apply: () => {
          controller.abort(new Error("user pressed stop"));
          throw new Error("interrupted");
        },
      };
      const context = createTestContext({ signal: controller.signal });
      await expect(runPipeline(view, [aborting], context, { breaker })).rejects.toThrow("user pressed stop");
      expect(context.events).toEqual([]);
      expect(breaker.consecutiveFailures("aborting")).toBe(0);
    });

    it("should not use a result that arrives after the abort", async () => {
      const controller = new AbortController();
      const calls: string[] = [];
      const late: Strategy = {
        name: "late",
        apply: (input) => {
          controller.abort(new Error("too late"));
          return { view: createViewDraft(input.entries.slice(1)), applied: true };
        },
      };
      const context = createTestContext({ signal: controller.signal });
      await expect(runPipeline(view, [late, dropFirst("next", calls)], context)).rejects.toThrow("too late");
      expect(calls).toEqual([]);
    });
  });
});
