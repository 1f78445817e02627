// compact({ through }): a compaction of history messages 0…through leaves every message after them exactly as it was in the view.
import type { CompactResult, ContextManager, Message } from "@ctxkit/core";
import { canCompactThrough, type CompactOptions, canListCompactions, findToolUnits } from "@ctxkit/core/kit";
import fc from "fast-check";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { isBudgetErrorLike, isContextErrorLike } from "../checks/error-kinds.js";
import { describeError, expectThat, preview, PropertyViolation } from "../checks/violation.js";
import { addToTally, defineProperty } from "./property.js";
import { inInstance, ROOMY_BUDGET } from "./undo-compaction.js";

type CompactingThrough = ContextManager & { compact(options?: CompactOptions): Promise<CompactResult> };

const NO_THROUGH = "no-through";
const INSTRUCTIONS = "Keep every number and file name.";

/** The last history index of each unit: where `through` may fall. */
function unitEnds(history: readonly Message[]): number[] {
  return findToolUnits(history).map((unit) => unit.end - 1);
}

/** An index inside a unit of more than one message (a call whose results follow it), or undefined. */
function splittingIndex(history: readonly Message[]): number | undefined {
  const unit = findToolUnits(history).find((candidate) => candidate.end - candidate.start > 1);
  return unit === undefined ? undefined : unit.start;
}

/** Whether `view` ends with the messages of `tail` (equal, as the manager may store a message's keys in another order). */
function endsWith(view: readonly Message[], tail: readonly Message[]): boolean {
  if (view.length < tail.length) return false;
  const offset = view.length - tail.length;
  return tail.every((message, position) => isDeepEqual(view[offset + position], message));
}

/** The last `count` messages of `view`, as the bytes a provider would be sent. */
const lastBytes = (view: readonly Message[], count: number): string => JSON.stringify(count === 0 ? [] : view.slice(-count));

export const partialCompactionProperty = defineProperty({
  name: "partial-compaction",
  title: "should compact only the history up to through, leaving every later message as it was, across a restart too",
  invariant:
    "compact({ through, instructions }) leaves every view message after history index through exactly as it was; its receipt records through and that instructions were given; a through that splits a tool call from its results is refused with a typed error that changes nothing; after a restart (for a module declared restart: true) the receipt and the messages after through still hold.",
  exercises: {
    tally: "partial",
    what: "partial compactions checked",
    unreachable: (_context, tally) =>
      (tally.get(NO_THROUGH) ?? 0) > 0
        ? "the manager's compact() takes no through (canCompactThrough) or it has no listCompactions()"
        : undefined,
  },
  runsFactor: 0.2,
  arbitrary: () =>
    fc.record({
      session: sessionArbitrary({ maxEarlyRequests: 1 }),
      cut: fc.nat(),
      restart: fc.boolean(),
    }),
  async check({ session, cut, restart }, context) {
    const history = structuredClone(session.history) as Message[];
    const ends = unitEnds(history);
    if (ends.length === 0) return;
    const through = ends[cut % ends.length]!;
    const after = history.slice(through + 1);
    const where = `compact({ through: ${through} }) of ${history.length} message(s)`;
    let before: Message[] = [];
    const settings = await inInstance(context, undefined, async (instance) => {
      const { manager } = instance;
      if (!canCompactThrough(manager) || !canListCompactions(manager)) {
        addToTally(context, NO_THROUGH);
        return undefined;
      }
      for (const message of history) await manager.addMessage(message);
      before = await manager.getMessagesForRequest({ tokenBudget: ROOMY_BUDGET });
      // A roomy view is the history itself (no repair, no compaction); otherwise there is nothing to hold it to.
      if (!endsWith(before, after)) return undefined;
      await expectRefusedSplit(manager, before);
      let result: CompactResult;
      try {
        result = await (manager as CompactingThrough).compact({ tokenBudget: ROOMY_BUDGET, through, instructions: INSTRUCTIONS });
      } catch (error) {
        if (isBudgetErrorLike(error)) return undefined;
        throw new PropertyViolation(`${where} threw ${describeError(error)}`);
      }
      addToTally(context, "partial");
      const view = await manager.getMessagesForRequest({ tokenBudget: ROOMY_BUDGET });
      expectThat(
        view.length >= after.length && lastBytes(view, after.length) === lastBytes(before, after.length),
        () =>
          `${where} (compacted: ${String(result.compacted)}) changed what follows index ${through}: the view ends ${preview(view.slice(-Math.max(1, after.length)), 240)}, not ${preview(after, 240)}`,
      );
      const newest = (await manager.listCompactions()).at(-1);
      expectThat(
        newest?.through === through && newest.hasInstructions === true,
        () =>
          `${where}: the newest receipt records through ${preview(newest?.through)} and hasInstructions ${preview(newest?.hasInstructions)}`,
      );
      return instance.settings;
    });
    if (settings === undefined || !restart || context.features?.restart !== true) return;
    await inInstance(context, settings, async ({ manager }) => {
      if (!canListCompactions(manager)) return;
      const receipt = (await manager.listCompactions()).at(-1);
      expectThat(
        receipt?.through === through,
        () => `after a restart, the newest receipt records through ${preview(receipt?.through)}, not ${through}`,
      );
      const view = await manager.getMessagesForRequest({ tokenBudget: ROOMY_BUDGET });
      expectThat(
        lastBytes(view, after.length) === lastBytes(before, after.length),
        () => `after ${where} and a restart, the view no longer ends with the messages after ${through}`,
      );
    });

    async function expectRefusedSplit(manager: ContextManager, viewBefore: readonly Message[]): Promise<void> {
      const inside = splittingIndex(history);
      if (inside === undefined) return;
      const refused = await (manager as CompactingThrough).compact({ tokenBudget: ROOMY_BUDGET, through: inside }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expectThat(
        isContextErrorLike(refused),
        () =>
          `compact({ through: ${inside} }), between a tool call and its results, ${refused === undefined ? "was accepted" : `threw ${describeError(refused)}`}: a typed error was due`,
      );
      const view = await manager.getMessagesForRequest({ tokenBudget: ROOMY_BUDGET });
      expectThat(
        JSON.stringify(view) === JSON.stringify(viewBefore),
        () => `a refused compact({ through: ${inside} }) changed the view to ${preview(view, 200)}`,
      );
    }
  },
});
