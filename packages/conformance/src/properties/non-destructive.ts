// Invariant 3: views never rewrite the history, and nothing a caller does to its values reaches the manager.
import { isDeepEqual } from "../checks/deep-equal.js";
import { expectSameHistory } from "../checks/expect-same-history.js";
import { describeRequest } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import { sessionArbitrary, type Session } from "../arbitraries/session-arbitrary.js";
import type { ManagerDriver, RequestOutcome } from "../subject/manager-driver.js";
import { isSameOutcome, previewOutcome } from "./outcome-equality.js";
import { defineProperty, withManager, COMPACTIONS_EXERCISED } from "./property.js";
import { createOverflowError } from "./recover-overflow.js";
import { scribbleOnArray, scribbleOnMessage } from "./scribble.js";
import type { ContextManager, Message, RequestOptions } from "@ctxkit/core";

/** What a caller can see of the values it passed: their own properties, as JSON. */
function snapshotInputs(error: Error, options: RequestOptions): string {
  return JSON.stringify({
    name: error.name,
    message: error.message,
    own: { ...error },
    options,
    frozen: Object.isFrozen(error) || Object.isFrozen(options),
  });
}

/** setMessages and recoverOverflow leave what they were given alone, as addMessage does. */
async function checkOtherInputs(session: Session, driver: ManagerDriver): Promise<void> {
  const given = structuredClone(session.history);
  await driver.manager.setMessages(given);
  expectThat(isDeepEqual(given, session.history), () => `setMessages changed the caller's messages: ${preview(given)}`);
  expectThat(
    !Object.isFrozen(given) && given.every((message) => !Object.isFrozen(message)),
    "setMessages froze the caller's array or messages; the manager must freeze a copy",
  );
  given.forEach(scribbleOnMessage);
  given.reverse();
  expectSameHistory(await driver.manager.getMessages(), session.history, "after the caller scribbled on what it gave setMessages");
  if (!driver.capabilities.recoverOverflow.enabled) return;
  const error = createOverflowError();
  const options: RequestOptions = { tokenBudget: session.requests.at(-1)!.budget };
  const before = snapshotInputs(error, options);
  await (driver.manager as ContextManager & { recoverOverflow(error: unknown, options?: RequestOptions): Promise<Message[]> })
    .recoverOverflow(error, options)
    .catch(() => undefined);
  const after = snapshotInputs(error, options);
  expectThat(before === after, () => `recoverOverflow changed the error or options it was given: ${before} became ${after}`);
}

/**
 * Walks the session while scribbling on everything: half of the caller's messages right after they are
 * added (the other half must stay untouched by the manager), every returned view and history array.
 */
async function walkCarelessly(session: Session, driver: ManagerDriver): Promise<RequestOutcome[]> {
  const given = structuredClone(session.history);
  const outcomes: RequestOutcome[] = [];
  let added = 0;
  for (const request of session.requests) {
    while (added < request.after) {
      const index = added++;
      await driver.manager.addMessage(given[index]!);
      expectThat(
        isDeepEqual(given[index], session.history[index]),
        () => `addMessage changed the caller's message ${index}: ${preview(given[index])}`,
      );
      expectThat(!Object.isFrozen(given[index]), `addMessage froze the caller's message ${index}; the manager must freeze a copy`);
      if (index % 2 === 0) scribbleOnMessage(given[index]);
    }
    const outcome = await driver.request(request, added);
    // Deep snapshot before scribbling, so the comparison with the control instance sees what was returned.
    outcomes.push({ ...outcome, ...(outcome.view === undefined ? {} : { view: structuredClone(outcome.view) }) });
    if (outcome.view !== undefined) scribbleOnArray(outcome.view);
    const history = await driver.manager.getMessages();
    expectSameHistory(history, session.history.slice(0, added), `after ${describeRequest(outcome)}`);
    scribbleOnArray(history);
  }
  given.forEach((message, index) => {
    if (index % 2 === 0) return;
    expectThat(
      isDeepEqual(message, session.history[index]),
      () => `the caller's message ${index} was mutated after it was added: ${preview(message)}`,
    );
    expectThat(!Object.isFrozen(message), `the caller's message ${index} was frozen after it was added`);
  });
  return outcomes;
}

export const nonDestructiveProperty = defineProperty({
  name: "non-destructive",
  title: "should never rewrite the history or the caller's objects",
  invariant:
    "getMessages() always returns every message added, equal to what was given and in order, whatever views were built; the caller's objects (given to addMessage, setMessages or recoverOverflow) are never mutated, and mutating or freezing anything the caller gave or got back changes no later result.",
  exercises: COMPACTIONS_EXERCISED,
  arbitrary: () => sessionArbitrary({ broken: true }),
  async check(session, context) {
    const control = await withManager(context, async (driver) => (await driver.walk(session)).outcomes);
    await withManager(context, async (driver) => {
      const outcomes = await walkCarelessly(session, driver);
      outcomes.forEach((outcome, index) => {
        expectThat(
          isSameOutcome(outcome, control[index]!),
          () =>
            `${describeRequest(outcome)} differs from an untouched instance's after the caller scribbled on earlier values: ` +
            `got ${previewOutcome(outcome)}, expected ${previewOutcome(control[index]!)}`,
        );
      });
      expectSameHistory(await driver.manager.getMessages(), session.history, "at the end");
      await checkOtherInputs(session, driver);
    });
  },
});
