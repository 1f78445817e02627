// The strategy pipeline: runs strategies in order until the view is at or below the target (all of them when forced).
import { ContextArgumentError } from "../errors.js";
import { durationMsProblem } from "../modules/duration-ms.js";
import type { CircuitBreaker } from "./circuit-breaker.js";
import type { PipelineResult, PipelineStep, Strategy, StrategyContext, StrategyResult, ViewDraft } from "./strategy.js";
import { truncatedPastRoleOf, withTruncatedPast } from "./truncated-past.js";
import { withTimeout } from "./with-timeout.js";

/** How long one strategy may run before the pipeline goes on without it: room for a few LLM calls. */
export const DEFAULT_STRATEGY_TIMEOUT_MS = 120_000;

export interface RunPipelineOptions {
  /** Shared across runs so consecutive failures add up; without one, every failure counts as the first. */
  breaker?: CircuitBreaker;
  /** How long one strategy may take; after it, the strategy's signal aborts and it counts as failed. */
  strategyTimeoutMs?: number;
  /**
   * Called after each strategy whose draft the pipeline took, with the draft before and after it: how a
   * caller learns which strategy dropped or added an entry (an edit names its strategy on the entry itself).
   */
  onApplied?: (strategy: string, before: ViewDraft, after: ViewDraft) => void;
}

/**
 * A strategy that throws, rejects, returns no draft, grows the view, or does not finish within
 * `strategyTimeoutMs` (`ContextTimeoutError`) is skipped for this run: nothing from it reaches the
 * view, the error goes to `context:strategy_error`, and the breaker counts it. An aborted
 * `context.signal` is not a strategy failure: the signal's reason is thrown at once, even while a
 * strategy is still running.
 */
export async function runPipeline(
  view: ViewDraft,
  strategies: readonly Strategy[],
  context: StrategyContext,
  options: RunPipelineOptions = {},
): Promise<PipelineResult> {
  const { breaker, strategyTimeoutMs = DEFAULT_STRATEGY_TIMEOUT_MS } = options;
  // Refused here, once, rather than as every strategy's failure.
  const problem = durationMsProblem(strategyTimeoutMs);
  if (problem !== undefined) throw new ContextArgumentError("runPipeline", [{ path: "options.strategyTimeoutMs", message: problem }]);
  breaker?.tick();
  context.signal.throwIfAborted();
  const steps: PipelineStep[] = [];
  let current = view;
  for (const strategy of strategies) {
    if (current.tokens <= context.target && context.forced !== true) break;
    // A draft that left out the truncated past goes whole to a strategy that does not declare it reads none of it.
    if (truncatedPastRoleOf(strategy) === undefined) current = withTruncatedPast(current);
    const tokensBefore = current.tokens;
    if (breaker !== undefined && !breaker.shouldRun(strategy.name)) {
      steps.push({
        strategy: strategy.name,
        applied: false,
        tokensBefore,
        tokensAfter: tokensBefore,
        durationMs: 0,
        skipped: "circuit_open",
      });
      continue;
    }
    const startedAt = performance.now();
    let result: StrategyResult;
    try {
      const draft = current;
      const applied = await withTimeout(`Strategy "${strategy.name}"`, strategyTimeoutMs, context.signal, (signal) =>
        strategy.apply(draft, { ...context, signal }),
      );
      result = checkResult(strategy, current, applied);
    } catch (error) {
      context.signal.throwIfAborted();
      const consecutiveFailures = breaker?.recordFailure(strategy.name) ?? 1;
      context.emit("context:strategy_error", { strategy: strategy.name, error, consecutiveFailures });
      const durationMs = performance.now() - startedAt;
      steps.push({ strategy: strategy.name, applied: false, tokensBefore, tokensAfter: tokensBefore, durationMs, skipped: "error" });
      continue;
    }
    // A strategy may finish its work after the caller gave up; its result must not be used then.
    context.signal.throwIfAborted();
    breaker?.recordSuccess(strategy.name);
    if (result.view !== current) options.onApplied?.(strategy.name, current, result.view);
    current = result.view;
    steps.push({
      strategy: strategy.name,
      applied: result.applied,
      tokensBefore,
      tokensAfter: current.tokens,
      durationMs: performance.now() - startedAt,
    });
  }
  return { view: current, steps };
}

// Strategies are trusted to keep units whole, but two cheap checks catch the worst bugs: a missing
// draft, and a draft larger than its input. A strategy exists to shrink the view; one that grows it
// would push a view that was merely large past the budget, so its result is discarded like an error.
function checkResult(strategy: Strategy, input: ViewDraft, result: StrategyResult | undefined): StrategyResult {
  const tokens: unknown = result?.view?.tokens;
  if (typeof tokens !== "number" || !Number.isFinite(tokens)) {
    throw new TypeError(`Strategy "${strategy.name}" did not return a view draft.`);
  }
  if (tokens > input.tokens) {
    throw new RangeError(
      `Strategy "${strategy.name}" grew the view from ${input.tokens} to ${tokens} tokens; a strategy may only shrink it.`,
    );
  }
  return result as StrategyResult;
}
