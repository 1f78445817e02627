// An API that hands out part of a history (here: what a summary strategy sends the summarizer) hands
// out whole tool units: a call with all of its results, a result only with its call.
import { checkToolPairs } from "@ctxkit/core/kit";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { expectThat, preview } from "../checks/violation.js";
import { addToTally, defineProperty, withManager } from "./property.js";

export const partialHistoryUnitsProperty = defineProperty({
  name: "partial-history-units",
  title: "should hand out whole tool units wherever it returns part of a history",
  invariant:
    "Each batch of history messages sent to the summarizer the kit supplied holds whole tool units: every call with all of its results right after it, and no result without its call.",
  exercises: { tally: "calls", what: "summarizer calls checked" },
  skipReason: (context) =>
    context.features?.summarizer === true
      ? undefined
      : "not declared summarizer: true, for a summary strategy on the kit's settings.summarizer",
  // Whole histories: a call a crash left unanswered is a unit of its own, not a split one.
  arbitrary: () => sessionArbitrary({ broken: false, maxEarlyRequests: 4, budget: budgetArbitrary({ min: 64, max: 4_096 }) }),
  describeTally: (tally) => {
    const calls = tally.get("calls") ?? 0;
    return `${calls} summarizer call(s) checked`;
  },
  async check(session, context) {
    await withManager(context, async (driver) => {
      await driver.walk(session);
      for (const [index, call] of driver.instance.settings.summarizer.calls.entries()) {
        addToTally(context, "calls");
        const violations = checkToolPairs(call.messages).filter((violation) => violation.kind !== "duplicate_call_id");
        expectThat(
          violations.length === 0,
          () => `summarizer call ${index} was sent a split tool unit: ${preview(violations, 300)} in ${preview(call.messages, 300)}`,
        );
      }
    });
  },
});
