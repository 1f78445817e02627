// A message that breaks the schema is rejected with ContextValidationError, and nothing changes: every kind, every run.
import type { Message } from "@ctxkit/core";
import fc from "fast-check";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { historyArbitrary } from "../arbitraries/history-arbitrary.js";
import { INVALID_MESSAGES } from "../arbitraries/invalid-message-arbitrary.js";
import { expectSameHistory } from "../checks/expect-same-history.js";
import { isValidationErrorLike } from "../checks/error-kinds.js";
import { describeError, expectThat } from "../checks/violation.js";
import type { ManagerDriver, RequestOutcome } from "../subject/manager-driver.js";
import { isSameOutcome, previewOutcome } from "./outcome-equality.js";
import { defineProperty, withManager } from "./property.js";

async function expectRejected(operation: () => Promise<unknown>, what: string): Promise<void> {
  let error: unknown;
  let rejected = false;
  try {
    await operation();
  } catch (caught) {
    rejected = true;
    error = caught;
  }
  expectThat(rejected, `${what} was accepted`);
  expectThat(isValidationErrorLike(error), () => `${what} was rejected with ${describeError(error)}, not a ContextValidationError`);
}

async function expectUnchanged(driver: ManagerDriver, history: readonly Message[], view: RequestOutcome, after: string): Promise<void> {
  expectSameHistory(await driver.manager.getMessages(), history, `after ${after}`);
  const again = await driver.request(view, history.length);
  expectThat(isSameOutcome(again, view), () => `after ${after}, the view changed from ${previewOutcome(view)} to ${previewOutcome(again)}`);
}

export const validationProperty = defineProperty({
  name: "validation",
  title: "should reject an invalid message and change nothing",
  invariant:
    "addMessage and setMessages reject a message that breaks the schema with ContextValidationError, and leave the history and the view unchanged; every kind of invalid message is tried in every run.",
  // Each run tries all the kinds: fewer runs cover more than the old one-kind-per-run did.
  exercises: { tally: "rejected", what: "invalid inputs rejected" },
  runsFactor: 0.3,
  arbitrary: () =>
    fc.record({ history: historyArbitrary({ broken: true, maxSegments: 6 }), position: fc.nat(), budget: budgetArbitrary() }),
  async check({ history, position, budget }, context) {
    await withManager(context, async (driver) => {
      for (const message of structuredClone(history)) await driver.manager.addMessage(message);
      const view = await driver.request({ budget }, history.length);
      for (const [reason, value] of Object.entries(INVALID_MESSAGES)) {
        await expectRejected(() => driver.manager.addMessage(structuredClone(value) as Message), `addMessage(${reason})`);
        await expectUnchanged(driver, history, view, `a rejected addMessage (${reason})`);
        const replacement = structuredClone(history) as unknown[];
        replacement.splice(position % (replacement.length + 1), 0, structuredClone(value));
        await expectRejected(() => driver.manager.setMessages(replacement as Message[]), `setMessages with ${reason} among valid messages`);
        await expectUnchanged(driver, history, view, `a rejected setMessages (${reason})`);
      }
    });
  },
});
