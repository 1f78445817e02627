// Shared strategy state under concurrent writers: two instances on one session pin at the same time,
// and every pin either acknowledged is there for the next instance to open the session.
import { canPin, type ContextManager, type Message } from "@ctxkit/core";
import fc from "fast-check";
import { historyArbitrary } from "../arbitraries/history-arbitrary.js";
import { expectThat } from "../checks/violation.js";
import { createSessionSettings } from "../subject/session-settings.js";
import type { ManagerInstance } from "../subject/subject.js";
import { defineProperty } from "./property.js";

export const sharedStateProperty = defineProperty({
  name: "shared-state",
  title: "should lose no acknowledged pin when two instances on one session write at once",
  invariant:
    "With two instances open on one session id over a shared store, pins made concurrently from both, once acknowledged, are all listed by pinnedMessages() of a third instance opened on that session.",
  exercises: { tally: "calls:pinMessage", what: "pins acknowledged" },
  skipReason: (context) =>
    context.features?.sharedStore === true ? undefined : "not declared sharedStore: true, for instances that share one session's store",
  runsFactor: 0.3,
  arbitrary: () =>
    fc.record({
      history: historyArbitrary({ maxSegments: 6, hugeOutputs: false }).filter((history) => history.length > 0),
      pins: fc.array(fc.record({ writer: fc.integer({ min: 0, max: 1 }), at: fc.nat() }), { minLength: 2, maxLength: 8 }),
    }),
  async check({ history, pins }, context) {
    const settings = createSessionSettings();
    const opened: ManagerInstance[] = [];
    try {
      const writers = [await context.subject.create(settings), await context.subject.create(settings)];
      opened.push(...writers);
      for (const writer of writers) await writer.manager.setMessages(structuredClone(history) as Message[]);
      const pinning = writers.map((writer) => writer.manager).filter(canPin);
      expectThat(pinning.length === 2, "the manager declared a shared store but cannot pin (pinMessage, unpinMessage, pinnedMessages)");
      const indices = pins.map(({ at }) => at % history.length);
      const acknowledged = await Promise.all(pins.map(({ writer }, position) => pinning[writer]!.pinMessage(indices[position]!)));
      const reader = await context.subject.create(settings);
      opened.push(reader);
      const listed = new Set(await (reader.manager as ContextManager & { pinnedMessages(): Promise<number[]> }).pinnedMessages());
      const lost = acknowledged.filter((index) => !listed.has(index));
      expectThat(
        lost.length === 0,
        () =>
          `pins acknowledged by two instances writing at once were lost: ${JSON.stringify([...new Set(lost)])} missing from ${JSON.stringify([...listed])}`,
      );
    } finally {
      for (const instance of opened.reverse()) await instance.dispose();
    }
  },
});
