// runStrategyConformance: a strategy's promises as one seeded, shrinking fast-check property.
import type { Strategy } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describeError, PropertyViolation } from "../checks/violation.js";
import type { CheckResult } from "../runner/report.js";
import { createSeed, DEFAULT_RUNS } from "../runner/run-conformance.js";
import { checkStrategy, strategyInputArbitrary } from "./strategy-checks.js";

export interface StrategyConformanceOptions {
  /** Runs. Default 100. */
  readonly runs?: number;
  readonly seed?: number;
  readonly path?: string;
  /** Shrink a failure to a minimal counterexample; `false` stops at the first failing run. Default true. */
  readonly shrink?: boolean;
}

export const STRATEGY_INVARIANT =
  "Given a view draft, the strategy keeps tool units whole, never drops or alters protected entries, changes history messages only by recorded shortenings, keeps history order, counts its entries truthfully, leaves its input alone, returns the same result for the same input, and returns when two instances apply it at once over one shared session's state.";

/** A strategy, or a factory of fresh ones (for a strategy with its own breaker or cache). */
export type StrategySubject = Strategy | (() => Strategy);

export async function runStrategyConformance(subject: StrategySubject, options: StrategyConformanceOptions = {}): Promise<CheckResult> {
  const create = typeof subject === "function" ? subject : () => subject;
  const seed = options.seed ?? createSeed();
  const started = performance.now();
  let runs = 0;
  const details = await fc.check(
    fc.asyncProperty(strategyInputArbitrary(), async (input) => {
      runs += 1;
      await checkStrategy(create, input);
    }),
    {
      numRuns: options.runs ?? DEFAULT_RUNS,
      seed,
      endOnFailure: options.shrink === false,
      ...(options.path === undefined ? {} : { path: options.path }),
    },
  );
  const base = {
    name: "strategy",
    kind: "property" as const,
    description: STRATEGY_INVARIANT,
    runs,
    durationMs: performance.now() - started,
  };
  if (!details.failed || details.counterexample === null)
    return { ...base, status: details.failed ? "fail" : "pass", ...(details.failed ? { reason: "fast-check gave up" } : {}) };
  const error = details.errorInstance;
  return {
    ...base,
    status: "fail",
    reason: error instanceof PropertyViolation ? error.message : `the strategy threw ${describeError(error)}`,
    counterexample: {
      property: "strategy",
      seed: details.seed,
      path: details.counterexamplePath,
      shrinks: details.numShrinks,
      input: details.counterexample[0],
    },
  };
}
