// Invariant 7: a session resumed with setMessages gives back the same history and, deterministically, the same view.
import fc from "fast-check";
import { budgetSpecificationArbitrary, resolveBudget } from "../arbitraries/budget-specification.js";
import { maxOutputTokensArbitrary, toRequest, type ViewRequest } from "../arbitraries/session-arbitrary.js";
import { historyArbitrary } from "../arbitraries/history-arbitrary.js";
import { expectSameHistory } from "../checks/expect-same-history.js";
import { expectThat } from "../checks/violation.js";
import type { ManagerDriver, RequestOutcome } from "../subject/manager-driver.js";
import { isSameOutcome, previewOutcome } from "./outcome-equality.js";
import { defineProperty, withManager } from "./property.js";
import type { Message } from "@ctxkit/core";

async function expectHistory(driver: ManagerDriver, history: readonly Message[], how: string): Promise<void> {
  expectSameHistory(await driver.manager.getMessages(), history, how);
}

/** setMessages, then a request right after it: the first view of a resumed session. */
async function resume(driver: ManagerDriver, history: readonly Message[], request: ViewRequest): Promise<RequestOutcome> {
  await driver.manager.setMessages(structuredClone(history) as Message[]);
  await expectHistory(driver, history, "after setMessages(history)");
  return driver.request(request, history.length);
}

export const resumeProperty = defineProperty({
  name: "resume",
  title: "should resume a session with setMessages, deterministically",
  invariant:
    "A fresh instance given setMessages(history) returns that history, and its view for a budget equals another fresh instance's; setMessages on a used instance replaces its state the same way, and adding the messages one by one stores the same history.",
  arbitrary: () =>
    fc.record({
      history: historyArbitrary({ broken: true }),
      earlier: historyArbitrary({ maxSegments: 3 }),
      budget: budgetSpecificationArbitrary(),
      // Both budget forms: an explicit tokenBudget, or a provider's window less its output reservation.
      maxOutputTokens: maxOutputTokensArbitrary(true),
    }),
  async check({ history, earlier, budget: specification, maxOutputTokens }, context) {
    const budget = toRequest(history.length, resolveBudget(specification, history), maxOutputTokens);
    const first = await withManager(context, (driver) => resume(driver, history, budget));
    const second = await withManager(context, (driver) => resume(driver, history, budget));
    expectThat(
      isSameOutcome(first, second),
      () => `two fresh instances resumed with the same history gave different views: ${previewOutcome(first)} vs ${previewOutcome(second)}`,
    );
    const reused = await withManager(context, async (driver) => {
      for (const message of structuredClone(earlier)) await driver.manager.addMessage(message);
      await driver.request(budget, earlier.length);
      return resume(driver, history, budget);
    });
    expectThat(
      isSameOutcome(first, reused),
      () => `setMessages on a used instance gave ${previewOutcome(reused)}, a fresh instance ${previewOutcome(first)}`,
    );
    await withManager(context, async (driver) => {
      for (const message of structuredClone(history)) await driver.manager.addMessage(message);
      await expectHistory(driver, history, "after adding the history one message at a time");
    });
  },
});
