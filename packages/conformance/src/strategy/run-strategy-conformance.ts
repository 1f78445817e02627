// runStrategyConformance: a strategy's promises as one seeded, shrinking fast-check property.
import type { Strategy } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describeError, PropertyViolation } from "../checks/violation.js";
import type { CheckResult } from "../runner/report.js";
import { createSeed, DEFAULT_RUNS } from "../runner/run-conformance.js";
import { checkStrategy, type StrategyInput, strategyInputArbitrary } from "./strategy-checks.js";

export interface StrategyConformanceOptions {
  /** Runs. Default 100. */
  readonly runs?: number;
  readonly seed?: number;
  readonly path?: string;
  /** Shrink a failure to a minimal counterexample; `false` stops at the first failing run. Default true. */
  readonly shrink?: boolean;
}

export const STRATEGY_INVARIANT =
  "Given a view draft, with images, audio, files and unknown parts in its messages, the strategy keeps tool units whole, never drops or alters protected entries, changes history messages only by recorded shortenings (fewer tokens, a valid message), keeps history order, counts its entries truthfully, leaves its input alone, returns the same result for the same input, returns when two instances apply it at once over one shared session's state, and applies to some of the drafts over its target.";

/**
 * Fewer runs than this say nothing about a strategy that never applied: the "never exercised" check needs
 * enough drafts over the target to be sure a working strategy met one it could shrink.
 */
export const MIN_RUNS_TO_JUDGE_EXERCISE = 20;

interface Exercise {
  applied: number;
  overTarget: number;
  /** The smallest draft over the target that the strategy left alone: the case a "never exercised" failure shows. */
  untouched?: { input: StrategyInput; tokens: number };
}

/** A strategy, or a factory of fresh ones (for a strategy with its own breaker or cache). */
export type StrategySubject = Strategy | (() => Strategy);

export async function runStrategyConformance(subject: StrategySubject, options: StrategyConformanceOptions = {}): Promise<CheckResult> {
  const create = typeof subject === "function" ? subject : () => subject;
  const seed = options.seed ?? createSeed();
  const started = performance.now();
  let runs = 0;
  const exercise: Exercise = { applied: 0, overTarget: 0 };
  const details = await fc.check(
    fc.asyncProperty(strategyInputArbitrary(), async (input) => {
      runs += 1;
      const outcome = await checkStrategy(create, input);
      if (outcome.applied) exercise.applied += 1;
      if (!outcome.overTarget) return;
      exercise.overTarget += 1;
      if (!outcome.applied && outcome.tokens < (exercise.untouched?.tokens ?? Number.POSITIVE_INFINITY))
        exercise.untouched = { input, tokens: outcome.tokens };
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
  if (!details.failed) {
    const { applied, overTarget, untouched } = exercise;
    const note = `applied in ${applied} of ${runs} runs; ${overTarget} drafts were over the target`;
    // A replayed path runs one case, and a handful of runs may hold no draft the strategy could shrink.
    if (applied > 0 || options.path !== undefined || runs < MIN_RUNS_TO_JUDGE_EXERCISE || untouched === undefined)
      return { ...base, status: "pass", note };
    return {
      ...base,
      status: "fail",
      note,
      reason:
        `never exercised: the strategy applied in none of ${runs} runs, though ${overTarget} drafts were over the target, ` +
        `the smallest ${untouched.tokens} tokens against a target of ${Math.floor(untouched.input.budget * 0.6)}. ` +
        "A strategy that never applies is usually looking for something messages never hold: compare what it matches " +
        '(a part type, a role, a field) with the message format (content is a string or parts: "text", "image_url", ' +
        '"input_audio", "file", and other typed parts). One that waits for something these drafts never reach (a window ' +
        "of more messages than they hold) is tested with options they reach.",
      counterexample: { property: "strategy", seed: details.seed, path: "", shrinks: 0, input: untouched.input },
    };
  }
  if (details.counterexample === null) return { ...base, status: "fail", reason: "fast-check gave up" };
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
