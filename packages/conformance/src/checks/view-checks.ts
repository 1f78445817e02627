// The checks a single view must pass, shared by the properties that build views in different ways.
import type { Message } from "@ctxkit/core";
import { checkToolPairs, isSynthetic } from "@ctxkit/core/kit";
import { viewTokens, type RequestOutcome } from "../subject/manager-driver.js";
import { isBudgetErrorLike } from "./error-kinds.js";
import { expectExactFit } from "./expect-exact-fit.js";
import { findMissingRequired, findUnmatchedViewMessage } from "./match-history.js";
import { findRequiredMessages } from "./minimal-view.js";
import { describeError, expectThat, preview, PropertyViolation } from "./violation.js";

export function describeRequest(outcome: Pick<RequestOutcome, "after" | "budget">): string {
  return `the request after ${outcome.after} message(s) with budget ${outcome.budget}`;
}

/** A request may fail only with ContextBudgetError; anything else is the manager crashing. */
export function expectViewOrBudgetError(outcome: RequestOutcome): outcome is RequestOutcome & { view: Message[] } {
  if (outcome.view !== undefined) return true;
  if (!isBudgetErrorLike(outcome.error)) {
    throw new PropertyViolation(`${describeRequest(outcome)} threw ${describeError(outcome.error)} (only ContextBudgetError is allowed)`);
  }
  return false;
}

export function expectPaired(view: readonly Message[], where: string): void {
  const violations = checkToolPairs(view);
  expectThat(violations.length === 0, () => `${where}: the view breaks tool pairs: ${preview(violations, 400)}`);
}

export function expectTakenInOrder(view: readonly Message[], history: readonly Message[], where: string): void {
  for (const message of view) {
    if (!isSynthetic(message)) continue;
    const source = message.metadata?.ctxkit?.source;
    expectThat(typeof source === "string", () => `${where}: a synthetic message has no string metadata.ctxkit.source: ${preview(message)}`);
  }
  const unmatched = findUnmatchedViewMessage(view, history);
  expectThat(
    unmatched === -1,
    () =>
      `${where}: view message ${unmatched} is neither synthetic (metadata.ctxkit) nor a history message (or a shortened form of one) ` +
      `that comes after the previous view message's: ${preview(view[unmatched])}`,
  );
}

/**
 * The last history index a summary in the view declares it stands for (`metadata.ctxkit.summary
 * .coveredThrough`), or -1. A summary may replace current-turn messages that could only be shortened.
 */
function summarizedThrough(view: readonly Message[]): number {
  let covered = -1;
  for (const message of view) {
    const summary = message.metadata?.ctxkit?.["summary"] as { coveredThrough?: unknown } | undefined;
    if (typeof summary?.coveredThrough === "number") covered = Math.max(covered, summary.coveredThrough);
  }
  return covered;
}

export function expectPreserved(view: readonly Message[], history: readonly Message[], where: string): void {
  const covered = summarizedThrough(view);
  const required = findRequiredMessages(history).filter((item) => !(item.mayShorten && item.historyIndex <= covered));
  const missing = findMissingRequired(view, required);
  expectThat(
    missing === undefined,
    () =>
      `${where}: history message ${missing?.historyIndex} (${missing?.why}) is ${missing?.mayShorten ? "missing" : "missing or altered"} ` +
      `in the view: ${preview(missing?.message)}`,
  );
}

/** The view fits (by the module's own figure when it has one), or the budget error is justified. */
export function expectWithinBudget(outcome: RequestOutcome): void {
  const where = describeRequest(outcome);
  if (outcome.view === undefined) {
    const error = outcome.error;
    if (!isBudgetErrorLike(error))
      throw new PropertyViolation(`${where} threw ${describeError(error)} (only ContextBudgetError is allowed)`);
    expectThat(
      error.required > error.budget,
      `${where} threw ContextBudgetError with required ${error.required} ≤ budget ${error.budget}: the view would have fit`,
    );
    expectThat(
      error.budget <= outcome.budget,
      `${where} threw ContextBudgetError for budget ${error.budget}, above the requested ${outcome.budget}`,
    );
    return;
  }
  expectExactFit(outcome.view, outcome.budget, outcome.usage, where);
  const tokens = viewTokens(outcome);
  const counted = outcome.usage === undefined ? "counted with core's exact o200k_base counter" : "by the module's usage()";
  expectThat(tokens <= outcome.budget, `${where} returned a view of ${tokens} tokens (${counted}), over the budget`);
  if (outcome.usage !== undefined) {
    expectThat(
      outcome.usage.tokens <= outcome.usage.budget,
      `${where}: usage() reports ${outcome.usage.tokens} tokens, over its own budget ${outcome.usage.budget}`,
    );
    expectThat(outcome.usage.budget <= outcome.budget, `${where}: usage().budget is ${outcome.usage.budget}, above the requested budget`);
  }
}

/** Every view invariant at once, for properties whose subject is something else (compact, concurrency…). */
export function expectValidView(outcome: RequestOutcome, history: readonly Message[], where = describeRequest(outcome)): void {
  expectWithinBudget(outcome);
  if (outcome.view === undefined) return;
  expectPaired(outcome.view, where);
  expectTakenInOrder(outcome.view, history, where);
  expectPreserved(outcome.view, history, where);
}
