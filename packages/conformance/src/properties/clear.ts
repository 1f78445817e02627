// clear(): the manager forgets everything, and then behaves exactly like a fresh one.
import fc from "fast-check";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { historyArbitrary } from "../arbitraries/history-arbitrary.js";
import { expectSameHistory } from "../checks/expect-same-history.js";
import { describeError, expectThat, preview } from "../checks/violation.js";
import type { Message } from "@ctxkit/core";
import type { ManagerDriver } from "../subject/manager-driver.js";
import { isSameOutcome, previewOutcome } from "./outcome-equality.js";
import { defineProperty, withManager } from "./property.js";

async function addAll(driver: ManagerDriver, messages: readonly Message[]): Promise<void> {
  for (const message of structuredClone(messages) as Message[]) await driver.manager.addMessage(message);
}

export const clearProperty = defineProperty({
  name: "clear",
  title: "should behave like a fresh instance after clear()",
  invariant:
    "After clear(), getMessages() and the view are empty, and messages added afterwards give the same history and view as a fresh instance given only them.",
  arbitrary: () => fc.record({ before: historyArbitrary({ broken: true }), after: historyArbitrary({ broken: true, maxSegments: 4 }), budget: budgetArbitrary() }),
  async check({ before, after, budget }, context) {
    const fresh = await withManager(context, async (driver) => {
      await addAll(driver, after);
      return driver.request({ budget }, after.length);
    });
    await withManager(context, async (driver) => {
      await addAll(driver, before);
      await driver.request({ budget }, before.length);
      await driver.manager.clear();
      const emptied = await driver.manager.getMessages();
      expectThat(emptied.length === 0, () => `after clear(), getMessages() still returns ${emptied.length} message(s): ${preview(emptied)}`);
      const emptyView = await driver.request({ budget }, 0);
      expectThat(emptyView.view !== undefined, () => `after clear(), a request threw ${describeError(emptyView.error)}`);
      expectThat(emptyView.view!.length === 0, () => `after clear(), the view still holds ${preview(emptyView.view)}`);
      await addAll(driver, after);
      expectSameHistory(await driver.manager.getMessages(), after, "after clear() and new messages");
      const outcome = await driver.request({ budget }, after.length);
      expectThat(isSameOutcome(outcome, fresh), () => `after clear(), the view is ${previewOutcome(outcome)}; a fresh instance's is ${previewOutcome(fresh)}`);
    });
  },
});
