// Invariant 8: concurrent calls are serialized in call order; none is lost and no view sees half a state.
import type { Message } from "@ctxkit/core";
import { isSynthetic } from "@ctxkit/core/kit";
import { isEqualOrShortened } from "../checks/match-history.js";
import fc from "fast-check";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { historyArbitrary, segmentArbitrary } from "../arbitraries/history-arbitrary.js";
import { expectSameHistory } from "../checks/expect-same-history.js";
import { expectPaired, expectPreserved, expectTakenInOrder, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectExactFit } from "../checks/expect-exact-fit.js";
import { describeError, expectThat, preview, PropertyViolation } from "../checks/violation.js";
import { defineProperty, withManager } from "./property.js";

interface ConcurrencyInput {
  readonly history: Message[];
  readonly concurrent: Message[];
  /** After how many of the concurrent adds a view request and a getMessages() call are issued. */
  readonly probes: number[];
  readonly budget: number;
}

/**
 * Says plainly when a view holds a message that only a later call added: the request did not wait its
 * turn. The general order check would only say the message is "not a history message", which hides why.
 */
function expectNothingFromLaterCalls(
  view: readonly Message[],
  expected: readonly Message[],
  after: number,
  initial: number,
  where: string,
): void {
  const earlier = expected.slice(0, after);
  for (const message of view) {
    if (isSynthetic(message) || earlier.some((candidate) => isEqualOrShortened(message, candidate))) continue;
    const later = expected.findIndex((candidate, index) => index >= after && isEqualOrShortened(message, candidate));
    if (later === -1) continue;
    throw new PropertyViolation(
      `${where} holds a message added by concurrent addMessage call ${later - initial}, which was issued after the request: ` +
        `the request was not served in call order (it saw a later state). The message: ${preview(message)}`,
    );
  }
}

export const concurrencyProperty = defineProperty<ConcurrencyInput>({
  name: "concurrency",
  title: "should serialize concurrent calls in call order",
  invariant:
    "Concurrent addMessage calls (50 by default) all land, in call order, and views and histories requested among them each reflect exactly the calls made before them.",
  exercises: { tally: "calls:addMessage", what: "addMessage calls" },
  runsFactor: 0.3,
  arbitrary: (context) =>
    fc.record({
      history: historyArbitrary({ broken: true, maxSegments: 4, hugeOutputs: false }),
      // Whole segments, cut to size: concurrency is about the calls, not the shape of the messages.
      concurrent: fc
        .array(segmentArbitrary({ hugeOutputs: false }), { minLength: context.concurrentAdds, maxLength: context.concurrentAdds })
        .map((segments) => segments.flat().slice(0, context.concurrentAdds)),
      probes: fc.uniqueArray(fc.nat({ max: context.concurrentAdds }), { maxLength: 4 }),
      budget: budgetArbitrary(),
    }),
  async check({ history, concurrent, probes, budget }, context) {
    await withManager(context, async (driver) => {
      for (const message of structuredClone(history)) await driver.manager.addMessage(message);
      const given = structuredClone(concurrent);
      const adds: Promise<void>[] = [];
      const views: Array<{ after: number; result: Promise<Message[]> }> = [];
      const histories: Array<{ after: number; result: Promise<Message[]> }> = [];
      // Nothing is awaited until every call is made, so every call after the first finds the manager busy.
      for (let index = 0; index <= given.length; index += 1) {
        if (probes.includes(index)) {
          views.push({ after: index, result: driver.manager.getMessagesForRequest({ tokenBudget: budget }) });
          histories.push({ after: index, result: driver.manager.getMessages() });
        }
        if (index < given.length) adds.push(driver.manager.addMessage(given[index]!));
      }
      const settled = await Promise.allSettled([...adds, ...views.map((view) => view.result), ...histories.map((entry) => entry.result)]);
      settled.slice(0, adds.length).forEach((result, index) => {
        expectThat(
          result.status === "fulfilled",
          () => `concurrent addMessage ${index} rejected: ${describeError((result as PromiseRejectedResult).reason)}`,
        );
      });
      const expected = [...history, ...concurrent];
      // The counter the module declares, read once every call has settled.
      const declared = driver.capabilities.usage.enabled ? await driver.readUsage() : undefined;
      expectSameHistory(await driver.manager.getMessages(), expected, `after ${concurrent.length} concurrent adds`);
      for (const entry of histories) {
        const snapshot = await entry.result;
        const prefix = expected.slice(0, history.length + entry.after);
        expectSameHistory(snapshot, prefix, `called after ${entry.after} of the concurrent adds`);
      }
      for (const entry of views) {
        const after = history.length + entry.after;
        const where = `a view requested after ${entry.after} concurrent adds`;
        const outcome = await entry.result.then(
          (view) => ({ after, budget, view, events: [] }),
          (error: unknown) => ({ after, budget, error, events: [] }),
        );
        // usage() describes only the last view, not one of several in flight: core's exact count judges each.
        if (!expectViewOrBudgetError(outcome)) continue;
        expectExactFit(outcome.view, budget, undefined, where, declared);
        expectNothingFromLaterCalls(outcome.view, expected, after, history.length, where);
        expectPaired(outcome.view, where);
        expectTakenInOrder(outcome.view, expected.slice(0, after), where);
        expectPreserved(outcome.view, expected.slice(0, after), where);
      }
    });
  },
});
