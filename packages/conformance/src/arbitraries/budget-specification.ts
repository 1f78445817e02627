// A budget as generated: absolute, a percentage of the history's estimated size, or a ratio of the
// exact size of the history's full or minimal view. Budgets near those ratios are where a manager's
// thresholds, margins and minimal view decide the outcome, so every class of budget bug shows there.
import { estimateCounter, type Message } from "@ctxkit/core";
import { countMessageTokens, repairToolPairs } from "@ctxkit/core/kit";
import fc from "fast-check";
import { countViewTokens } from "../checks/count-view-tokens.js";
import { findRequiredMessages } from "../checks/minimal-view.js";
import { budgetArbitrary } from "./budget-arbitrary.js";

/**
 * Relative budgets keep a failure's "this history needs compacting" relation while fast-check shrinks
 * the history, so counterexamples shrink to small histories with small budgets.
 */
export type BudgetSpecification =
  | { readonly absolute: number }
  | { readonly percent: number }
  /** `view` tokens (exact) divided by `ratio`, nudged by `permille` thousandths. */
  | { readonly view: "full" | "minimal"; readonly ratio: number; readonly permille: number };

/**
 * Where the full view (the whole repaired history) sits relative to the budget: at it, at the usual
 * compaction threshold, at the "room to spare" line, below it. A manager compacting at any share
 * under 70% is caught by the ratios in 0.5..0.7.
 */
export const FULL_VIEW_RATIOS = [1, 0.92, 0.7, 0.68, 0.66, 0.62, 0.58, 0.5, 0.4] as const;

export function budgetSpecificationArbitrary(absolute: fc.Arbitrary<number> = budgetArbitrary()): fc.Arbitrary<BudgetSpecification> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: absolute.map((value) => ({ absolute: value })), weight: 1 },
    { arbitrary: fc.integer({ min: 1, max: 150 }).map((percent) => ({ percent })), weight: 1 },
    {
      arbitrary: fc.record({
        view: fc.constant("full" as const),
        ratio: fc.constantFrom(...FULL_VIEW_RATIOS),
        permille: fc.integer({ min: -30, max: 5 }),
      }),
      weight: 3,
    },
    // Just under the minimal view (a manager must throw) or just over it (it must fit exactly).
    {
      arbitrary: fc.record({ view: fc.constant("minimal" as const), ratio: fc.constant(1), permille: fc.integer({ min: -40, max: 20 }) }),
      weight: 3,
    },
  );
}

/**
 * Budgets the full view fits with room to spare (at most 70% of them), or any budget now and then: a
 * manager that compacts anywhere under that line is caught on the request that crosses its threshold.
 */
export function roomyBudgetSpecificationArbitrary(): fc.Arbitrary<BudgetSpecification> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: budgetSpecificationArbitrary(), weight: 1 },
    {
      arbitrary: fc.record({
        view: fc.constant("full" as const),
        ratio: fc.constantFrom(0.7, 0.69, 0.68, 0.67, 0.66, 0.64, 0.62, 0.58, 0.5, 0.4, 0.3, 0.2),
        permille: fc.integer({ min: 0, max: 15 }),
      }),
      weight: 3,
    },
    // Just under the 70% line, where only a manager compacting between 65% and 70% shows: the hardest band to reach by chance.
    {
      arbitrary: fc.record({
        view: fc.constant("full" as const),
        ratio: fc.constantFrom(0.69, 0.68, 0.67, 0.66),
        permille: fc.integer({ min: 0, max: 10 }),
      }),
      weight: 3,
    },
  );
}

const estimate = estimateCounter();

/**
 * Exact counts by message text: fast-check rebuilds messages while it shrinks, so the counter's
 * per-object cache would miss, and a 200 KB output takes long to count. Bounded, oldest out first.
 */
const countsByText = new Map<string, number>();
const COUNT_CACHE_SIZE = 4_096;

function countExactly(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) {
    const key = JSON.stringify(message);
    let tokens = countsByText.get(key);
    if (tokens === undefined) {
      tokens = countViewTokens([message]);
      if (countsByText.size >= COUNT_CACHE_SIZE) countsByText.delete(countsByText.keys().next().value!);
      countsByText.set(key, tokens);
    }
    total += tokens;
  }
  return total;
}

/** The exact tokens of the view that keeps the whole (repaired) history, or only what every view must keep. */
export function viewTokensOf(history: readonly Message[], view: "full" | "minimal"): number {
  if (view === "full") return countExactly(repairToolPairs(history).messages);
  return countExactly(findRequiredMessages(history).map((item) => item.message));
}

export function resolveBudget(specification: BudgetSpecification, history: readonly Message[]): number {
  if ("absolute" in specification) return specification.absolute;
  if ("percent" in specification) {
    const tokens = history.reduce((total, message) => total + countMessageTokens(message, estimate), 0);
    return Math.max(1, Math.round((tokens * specification.percent) / 100));
  }
  const tokens = viewTokensOf(history, specification.view);
  return Math.max(1, Math.floor(((tokens / specification.ratio) * (1000 + specification.permille)) / 1000));
}
