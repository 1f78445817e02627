// Tool units stay units: nothing synthetic (a summary, a notice) lands between a call and its results,
// and the parallel calls of one response stay in one assistant message with all their results.
import type { Message } from "@ctxkit/core";
import { hasToolCalls, isSynthetic } from "@ctxkit/core/kit";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { describeRequest, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import { addToTally, defineProperty, withManager, COMPACTIONS_EXERCISED } from "./property.js";

function callIdsOf(message: Message): string[] {
  return hasToolCalls(message) ? message.tool_calls.map((call) => call.id) : [];
}

/** Position of a synthetic message inside a unit (after a call message, before its last result), or -1. */
function findSyntheticInsideUnit(view: readonly Message[]): number {
  for (const [position, message] of view.entries()) {
    if (!hasToolCalls(message)) continue;
    const unanswered = new Set(callIdsOf(message));
    for (let next = position + 1; next < view.length && unanswered.size > 0; next += 1) {
      const candidate = view[next]!;
      if (candidate.role === "tool") unanswered.delete(candidate.tool_call_id);
      else if (isSynthetic(candidate)) return next;
      else break;
    }
  }
  return -1;
}

export const unitIntegrityProperty = defineProperty({
  name: "unit-integrity",
  title: "should keep each tool unit one unit: no summary inside it, parallel calls together",
  invariant:
    "No synthetic message (a summary, a notice) sits between a tool call and its results, and each view message with tool calls carries exactly the calls of one history message (the parallel calls of a response are never split or merged).",
  // Tight budgets and a summary pipeline when the module has one: where summaries meet units.
  exercises: COMPACTIONS_EXERCISED,
  arbitrary: () => sessionArbitrary({ broken: true, maxEarlyRequests: 3, budget: budgetArbitrary({ min: 64, max: 4_096 }) }),
  describeTally: (tally) => {
    const views = tally.get("views") ?? 0;
    return views === 0 ? undefined : `${tally.get("synthetic") ?? 0} of ${views} views held synthetic messages beside tool units`;
  },
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      for (const outcome of outcomes) {
        if (!expectViewOrBudgetError(outcome)) continue;
        const where = describeRequest(outcome);
        const history = session.history.slice(0, outcome.after);
        addToTally(context, "views");
        if (outcome.view.some(isSynthetic) && outcome.view.some(hasToolCalls)) addToTally(context, "synthetic");
        const inside = findSyntheticInsideUnit(outcome.view);
        expectThat(
          inside === -1,
          () =>
            `${where}: synthetic message ${inside} lands inside a tool unit, between a call and its results: ${preview(outcome.view[inside])}`,
        );
        for (const message of outcome.view) {
          if (!hasToolCalls(message) || isSynthetic(message)) continue;
          const ids = callIdsOf(message);
          const source = history.some((candidate) => isDeepEqual(callIdsOf(candidate), ids));
          expectThat(
            source,
            () =>
              `${where}: a view message calls ${JSON.stringify(ids)}, the calls of no single history message (parallel calls split or merged): ${preview(message)}`,
          );
        }
      }
    });
  },
});
