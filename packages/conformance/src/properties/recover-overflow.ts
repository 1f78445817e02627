// recoverOverflow(): after a provider said the view was too long, a strictly smaller valid view.
import type { ContextManager, Message, RequestOptions } from "@ctxkit/core";
import { isInstruction, isPinned } from "@ctxkit/core/kit";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { isBudgetErrorLike } from "../checks/error-kinds.js";
import { isEqualOrShortened } from "../checks/match-history.js";
import { findRequiredMessages } from "../checks/minimal-view.js";
import { expectValidView } from "../checks/view-checks.js";
import { describeError, expectThat, PropertyViolation } from "../checks/violation.js";
import { viewTokens, type RequestOutcome } from "../subject/manager-driver.js";
import { expectStoredHistory } from "./history-checks.js";
import { defineProperty, withManager } from "./property.js";

export type Recovering = ContextManager & { recoverOverflow(error: unknown, options?: RequestOptions): Promise<Message[]> };

/** The error a provider adapter would pass on: OpenAI's wording for an over-long prompt. */
export function createOverflowError(): Error {
  return Object.assign(
    new Error("This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."),
    {
      code: "context_length_exceeded",
    },
  );
}

/** Whether every message of the view is one the minimal view must keep anyway: nothing left to drop. */
function isMinimal(view: readonly Message[], history: readonly Message[]): boolean {
  const required = findRequiredMessages(history);
  return view.every(
    (message) =>
      message.metadata?.ctxkit !== undefined ||
      isInstruction(message) ||
      isPinned(message) ||
      required.some((item) => isEqualOrShortened(message, item.message)),
  );
}

export const recoverOverflowProperty = defineProperty({
  name: "recover-overflow",
  title: "should return a smaller view after a context overflow",
  invariant:
    "recoverOverflow(error) returns a valid view with fewer tokens than the view that overflowed, unless that view was already minimal, or throws a justified ContextBudgetError; the history is unchanged.",
  requires: "recoverOverflow",
  arbitrary: () => sessionArbitrary({ broken: true, maxEarlyRequests: 1 }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      const overflowed = outcomes.at(-1)!;
      if (overflowed.view === undefined) return;
      const where = `recoverOverflow after ${describeView(overflowed)}`;
      const mark = driver.eventMark();
      let view: Message[];
      try {
        view = await (driver.manager as Recovering).recoverOverflow(createOverflowError(), { tokenBudget: overflowed.budget });
      } catch (error) {
        if (!isBudgetErrorLike(error)) throw new PropertyViolation(`${where} threw ${describeError(error)}`);
        expectThat(
          error.required > error.budget,
          `${where} threw ContextBudgetError with required ${error.required} ≤ budget ${error.budget}`,
        );
        await expectStoredHistory(driver, session.history, where);
        return;
      }
      const usage = driver.capabilities.usage.enabled ? await driver.readUsage() : undefined;
      const recovered: RequestOutcome = {
        after: overflowed.after,
        budget: overflowed.budget,
        view,
        usage,
        events: driver.eventsSince(mark),
      };
      expectValidView(recovered, session.history, where);
      const before = viewTokens(overflowed);
      const after = viewTokens(recovered);
      expectThat(
        after < before || isMinimal(overflowed.view, session.history),
        `${where} returned ${after} tokens, not fewer than the ${before} that overflowed, though that view held droppable messages`,
      );
      await expectStoredHistory(driver, session.history, where);
    });
  },
});

function describeView(outcome: RequestOutcome): string {
  return `a view of ${outcome.view?.length ?? 0} message(s) for budget ${outcome.budget}`;
}
