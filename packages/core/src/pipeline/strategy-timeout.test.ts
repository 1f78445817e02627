import { describe, expect, it } from "vitest";
import { assistantMessage, createTestContext, createTestView, userMessage } from "../../test/strategy-context.js";
import { ContextTimeoutError } from "../errors.js";
import { CircuitBreaker } from "./circuit-breaker.js";
import { runPipeline } from "./run-pipeline.js";
import type { Strategy } from "./strategy.js";
import { createViewDraft } from "./view-draft.js";

const view = createTestView([
  userMessage("first"),
  assistantMessage("a".repeat(400)),
  assistantMessage("b".repeat(400)),
  userMessage("now"),
]);

/** A strategy whose work never finishes (an LLM call that hangs), recording the signal it was given. */
function stuck(signals: AbortSignal[] = []): Strategy {
  return { name: "stuck", apply: (_view, context) => (signals.push(context.signal), new Promise(() => {})) };
}

const dropFirst: Strategy = { name: "drop-first", apply: (input) => ({ view: createViewDraft(input.entries.slice(1)), applied: true }) };

describe("strategyTimeoutMs", () => {
  it("should go on without a strategy that never settles, count it as failed and abort its signal (regression)", async () => {
    const signals: AbortSignal[] = [];
    const context = createTestContext({ target: 0 });
    const breaker = new CircuitBreaker();
    const result = await runPipeline(view, [stuck(signals), dropFirst], context, { breaker, strategyTimeoutMs: 20 });
    expect(result.steps.map((step) => [step.strategy, step.skipped])).toEqual([
      ["stuck", "error"],
      ["drop-first", undefined],
    ]);
    const failure = context.events.find((recorded) => recorded.event === "context:strategy_error")!.payload as {
      error: unknown;
      consecutiveFailures: number;
    };
    expect(failure.error).toBeInstanceOf(ContextTimeoutError);
    expect(failure.consecutiveFailures).toBe(1);
    expect(signals[0]!.aborted).toBe(true);
  });

  it("should reject at once with the caller's reason when the request aborts while a strategy runs (regression)", async () => {
    const controller = new AbortController();
    const running = runPipeline(view, [stuck()], createTestContext({ target: 0, signal: controller.signal }), {
      strategyTimeoutMs: 60_000,
    });
    controller.abort(new Error("caller left"));
    await expect(running).rejects.toThrow("caller left");
  });
});
