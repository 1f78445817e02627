// clear(): the manager forgets everything, and then behaves exactly like a fresh one, request after request.
import fc from "fast-check";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { historyArbitrary } from "../arbitraries/history-arbitrary.js";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { expectSameHistory } from "../checks/expect-same-history.js";
import { describeRequest } from "../checks/view-checks.js";
import { describeError, expectThat, preview } from "../checks/violation.js";
import type { Message } from "@ctxkit/core";
import type { ManagerDriver } from "../subject/manager-driver.js";
import { isSameOutcome, previewOutcome } from "./outcome-equality.js";
import { defineProperty, withManager } from "./property.js";
import { isBudgetErrorLike } from "../checks/error-kinds.js";
import { createOverflowError, type Recovering } from "./recover-overflow.js";

async function addAll(driver: ManagerDriver, messages: readonly Message[]): Promise<void> {
  for (const message of structuredClone(messages) as Message[]) await driver.manager.addMessage(message);
}

export const clearProperty = defineProperty({
  name: "clear",
  title: "should behave like a fresh instance after clear()",
  invariant:
    "After clear(), getMessages() and the view are empty, and a session played afterwards gives, request after request, the same history and views as a fresh instance given only that session.",
  exercises: { tally: "calls:clear", what: "clear() calls" },
  arbitrary: () =>
    fc.record({
      before: historyArbitrary({ broken: true }),
      budgets: fc.array(budgetArbitrary(), { minLength: 1, maxLength: 3 }),
      after: sessionArbitrary({ broken: true, maxSegments: 6, maxEarlyRequests: 4 }),
    }),
  async check({ before, budgets, after }, context) {
    const fresh = await withManager(context, async (driver) => (await driver.walk(after)).outcomes);
    await withManager(context, async (driver) => {
      // Views at several budgets before clear(), and an overflow recovery, so hidden state (an overflow
      // shrink, a floor, a calibration) has a chance to build up.
      await addAll(driver, before);
      for (const budget of budgets) await driver.request({ budget }, before.length);
      if (driver.capabilities.recoverOverflow.enabled) {
        await (driver.manager as Recovering)
          .recoverOverflow(createOverflowError(), { tokenBudget: budgets[0]! })
          .catch((error: unknown) => {
            if (!isBudgetErrorLike(error)) throw error;
          });
      }
      await driver.manager.clear();
      const emptied = await driver.manager.getMessages();
      expectThat(
        emptied.length === 0,
        () => `after clear(), getMessages() still returns ${emptied.length} message(s): ${preview(emptied)}`,
      );
      const emptyView = await driver.request({ budget: budgets[0]! }, 0);
      expectThat(emptyView.view !== undefined, () => `after clear(), a request threw ${describeError(emptyView.error)}`);
      expectThat(emptyView.view!.length === 0, () => `after clear(), the view still holds ${preview(emptyView.view)}`);
      const { outcomes } = await driver.walk(after);
      // Every later request, not only the first: state that survives clear() may show only on a later one.
      outcomes.forEach((outcome, index) => {
        expectThat(
          isSameOutcome(outcome, fresh[index]!),
          () =>
            `after clear(), ${describeRequest(outcome)} gave ${previewOutcome(outcome)}; a fresh instance's gave ${previewOutcome(fresh[index]!)}`,
        );
      });
      expectSameHistory(await driver.manager.getMessages(), after.history, "after clear() and new messages");
    });
  },
});
