// compact(): a forced, committed compaction, like /compact, that fits the budget and leaves the history alone.
import type { CompactResult, ContextManager, RequestOptions } from "@ctxkit/core";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { isBudgetErrorLike } from "../checks/error-kinds.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { expectValidView } from "../checks/view-checks.js";
import { describeError, expectThat, preview, PropertyViolation } from "../checks/violation.js";
import { expectStoredHistory } from "./history-checks.js";
import { defineProperty, withManager } from "./property.js";

type Compacting = ContextManager & { compact(options?: RequestOptions): Promise<CompactResult> };

export const compactProperty = defineProperty({
  name: "compact",
  title: "should compact on demand, within the budget, and commit it",
  invariant:
    "compact() returns tokensAfter ≤ tokensBefore and ≤ the budget (or throws a justified ContextBudgetError), leaves the history unchanged, and the next view is valid and no larger than tokensAfter; it reports compacted: true exactly when the view it leaves differs from the one before it.",
  exercises: { tally: "calls:compact", what: "compact() calls" },
  requires: "compact",
  arbitrary: () => sessionArbitrary({ broken: true, maxEarlyRequests: 2 }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      await driver.walk(session);
      // In the above-minimal regime the next request's budget is raised; compact() gets the same one, as a
      // larger budget may rightly grow a view compacted for a smaller one back from the history.
      const { budget } = await driver.inRegime({ budget: session.requests.at(-1)!.budget });
      const where = `compact({ tokenBudget: ${budget} }) after ${session.history.length} message(s)`;
      // The view /compact starts from: what a request right before it gets.
      const before = await driver.request({ budget }, session.history.length);
      let result: CompactResult;
      try {
        result = await (driver.manager as Compacting).compact({ tokenBudget: budget });
      } catch (error) {
        if (!isBudgetErrorLike(error)) throw new PropertyViolation(`${where} threw ${describeError(error)}`);
        expectThat(
          error.required > error.budget,
          `${where} threw ContextBudgetError with required ${error.required} ≤ budget ${error.budget}`,
        );
        await expectStoredHistory(driver, session.history, where);
        return;
      }
      expectThat(
        typeof result?.tokensAfter === "number" && typeof result.tokensBefore === "number",
        () => `${where} returned ${preview(result)}, not a CompactResult`,
      );
      expectThat(result.tokensAfter <= budget, `${where} left ${result.tokensAfter} tokens, over the budget`);
      expectThat(
        result.tokensAfter <= result.tokensBefore,
        `${where} grew the view from ${result.tokensBefore} to ${result.tokensAfter} tokens`,
      );
      await expectStoredHistory(driver, session.history, where);
      const next = await driver.request({ budget }, session.history.length);
      expectValidView(next, session.history, `the request right after ${where}`);
      if (next.usage !== undefined && next.view !== undefined) {
        // Committed: with nothing added since, the next view builds on the compaction instead of undoing it.
        expectThat(
          next.usage.tokens <= result.tokensAfter,
          `the view right after ${where} has ${next.usage.tokens} tokens, more than the compaction's tokensAfter ${result.tokensAfter}`,
        );
      }
      if (before.view !== undefined && next.view !== undefined) {
        // Like /compact, it says whether it did anything: the view it leaves is another one exactly when it compacted.
        const changed = !isDeepEqual(next.view, before.view);
        expectThat(
          result.compacted === changed,
          () =>
            `${where} reported compacted: ${String(result.compacted)}, yet the view ${changed ? "changed" : "stayed the same"}: ` +
            `was ${preview(before.view, 200)}, now ${preview(next.view, 200)}`,
        );
      }
    });
  },
});
