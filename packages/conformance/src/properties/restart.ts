// A persistent module restarted (closed, then opened on the same session) resumes its history, its views and its checkpoints.
import type { Message } from "@ctxkit/core";
import fc from "fast-check";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { expectSameHistory } from "../checks/expect-same-history.js";
import { expectValidView } from "../checks/view-checks.js";
import { expectThat } from "../checks/violation.js";
import { ManagerDriver, type RequestOutcome } from "../subject/manager-driver.js";
import type { SessionSettings } from "../subject/session-settings.js";
import { isSameOutcome, previewOutcome } from "./outcome-equality.js";
import { addToTally, defineProperty, type PropertyContext } from "./property.js";

/** Opens the session of `settings` (a new one when absent), runs `body`, and closes it: a process's lifetime. */
async function inProcess<T>(
  context: PropertyContext,
  settings: SessionSettings | undefined,
  body: (driver: ManagerDriver) => Promise<T>,
): Promise<T> {
  const instance = await context.subject.create(settings);
  try {
    return await body(new ManagerDriver(instance, context.capabilities, context.regime));
  } finally {
    await instance.dispose();
  }
}

export const restartProperty = defineProperty({
  name: "restart",
  title: "should resume the same history, views and checkpoints after a restart",
  invariant:
    "After a restart (close, then open on the same session) getMessages() returns the same history; a view for a budget equals a fresh instance's given setMessages(history), and equals the view after a second restart; no summarizer call is made again for what a checkpoint already covers.",
  exercises: { tally: "restarts", what: "sessions reopened after a restart" },
  runsFactor: 0.3,
  skipReason: (context) =>
    context.features?.restart === true
      ? undefined
      : "not declared restart: true, for a module whose sessions outlive their instance (opened by settings.sessionId)",
  arbitrary: () =>
    fc.record({ session: sessionArbitrary({ broken: true, maxEarlyRequests: 2 }), budget: budgetArbitrary(), setFirst: fc.boolean() }),
  async check({ session, budget, setFirst }, context) {
    const { history } = session;
    // Built before the restart: by adds and requests, or (a resumed session) by setMessages.
    const settings = await inProcess(context, undefined, async (driver) => {
      if (setFirst) await driver.manager.setMessages(structuredClone(history) as Message[]);
      else await driver.walk(session);
      await driver.request({ budget }, history.length);
      return driver.instance.settings;
    });
    const callsBefore = settings.summarizer.calls.length;
    const restarted = await inProcess(context, settings, async (driver) => {
      addToTally(context, "restarts");
      expectSameHistory(await driver.manager.getMessages(), history, "after a restart");
      const outcome = await driver.request({ budget }, history.length);
      expectValidView(outcome, history, `the first request after a restart (budget ${budget})`);
      return outcome;
    });
    const callsAfterFirst = settings.summarizer.calls.length;
    const again: RequestOutcome = await inProcess(context, settings, async (driver) => {
      expectSameHistory(await driver.manager.getMessages(), history, "after a second restart");
      return driver.request({ budget }, history.length);
    });
    expectThat(
      isSameOutcome(again, restarted),
      () =>
        `two restarts of one session gave different views for budget ${budget}: ${previewOutcome(restarted)}, then ${previewOutcome(again)}`,
    );
    if (context.features?.summarizer === true) {
      // The first restart may extend a checkpoint; the second has everything stored already.
      expectThat(
        settings.summarizer.calls.length === callsAfterFirst,
        () =>
          `a second restart called the summarizer ${settings.summarizer.calls.length - callsAfterFirst} more time(s) for a view the first restart had built (${callsBefore} call(s) before any restart): checkpoints were not reused`,
      );
      return;
    }
    // With no summarizer (no stored checkpoint to prefer), a restarted session builds the view a fresh instance builds.
    const fresh = await inProcess(context, undefined, async (driver) => {
      await driver.manager.setMessages(structuredClone(history) as Message[]);
      return driver.request({ budget }, history.length);
    });
    expectThat(
      isSameOutcome(restarted, fresh),
      () =>
        `after a restart the view for budget ${budget} is ${previewOutcome(restarted)}; a fresh instance given the history builds ${previewOutcome(fresh)}`,
    );
  },
});
