// Undoing a compaction (invariant 11, its second half): after an undo, a request whose budget holds the view from before it gets that view byte for byte.
import type { ContextManager, Message } from "@ctxkit/core";
import { canCompact, type CompactCapability } from "@ctxkit/core";
import { canListCompactions, canUndoCompaction, type CompactionReceiptCapability, type UndoCompactionCapability } from "@ctxkit/core/kit";
import fc from "fast-check";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { isBudgetErrorLike, isContextErrorLike } from "../checks/error-kinds.js";
import { describeError, expectThat, preview, PropertyViolation } from "../checks/violation.js";
import type { ManagerInstance } from "../subject/subject.js";
import { addToTally, defineProperty, type PropertyContext } from "./property.js";

type Undoing = ContextManager & CompactCapability & CompactionReceiptCapability & UndoCompactionCapability;

const NO_UNDO = "no-undo";

/** A budget that holds any generated history whole, far under a compaction threshold: the view from before is then the history's own. */
export const ROOMY_BUDGET = 4_000_000;

/** The subject's manager when it can compact, list its receipts and undo them; counted as unreachable otherwise. */
export function undoingManager(context: PropertyContext, instance: ManagerInstance): Undoing | undefined {
  const { manager } = instance;
  if (canCompact(manager) && canListCompactions(manager) && canUndoCompaction(manager)) return manager;
  addToTally(context, NO_UNDO);
  return undefined;
}

/** Runs `body` on a manager for the session of `settings` (a new one when absent), always disposed of. */
export async function inInstance<T>(
  context: PropertyContext,
  settings: ManagerInstance["settings"] | undefined,
  body: (instance: ManagerInstance) => Promise<T>,
): Promise<T> {
  const instance = await context.subject.create(settings);
  try {
    return await body(instance);
  } finally {
    await instance.dispose();
  }
}

/** The view for the roomy budget, as the bytes a provider would be sent. */
async function roomyView(manager: ContextManager): Promise<string> {
  return JSON.stringify(await manager.getMessagesForRequest({ tokenBudget: ROOMY_BUDGET }));
}

/** Compacts with the roomy budget; resolves to the new receipt's id, or undefined when the module refused for the budget. */
async function compactOnce(manager: Undoing, where: string): Promise<string | undefined> {
  const listed = await manager.listCompactions();
  try {
    await manager.compact({ tokenBudget: ROOMY_BUDGET });
  } catch (error) {
    if (isBudgetErrorLike(error)) return undefined;
    throw new PropertyViolation(`${where}: compact() threw ${describeError(error)}`);
  }
  const receipts = await manager.listCompactions();
  const added = receipts.filter((receipt) => !listed.some((earlier) => earlier.id === receipt.id));
  expectThat(added.length === 1, `${where}: compact() left ${added.length} new receipt(s) in listCompactions(), not one`);
  return added[0]!.id;
}

async function expectUndone(manager: Undoing, ids: readonly string[], where: string): Promise<void> {
  for (const id of ids) {
    const receipt = await manager.getCompaction(id);
    expectThat(
      typeof receipt?.undoneAt === "string",
      () => `${where}: receipt ${id} was undone, yet getCompaction() gives ${preview(receipt?.undoneAt ?? receipt, 120)} for its undoneAt`,
    );
  }
}

export const undoCompactionProperty = defineProperty({
  name: "undo-compaction",
  title: "should give back the view from before a compaction once it is undone, across a restart too",
  invariant:
    "After undoCompaction(id), a request whose budget holds the view from before compaction id gets that view byte for byte (in the instance that compacted, undoing the later of two gives back the view the earlier left), id and every later compaction are marked undone, and a second undo of id is refused with a typed error; after a restart (for a module declared restart: true) the undo still holds, and an undo made after the restart gives the same view.",
  exercises: {
    tally: "undos",
    what: "compactions undone",
    unreachable: (_context, tally) =>
      (tally.get(NO_UNDO) ?? 0) > 0 ? "the manager has no undoCompaction(), listCompactions() and compact()" : undefined,
  },
  runsFactor: 0.2,
  arbitrary: () =>
    fc.record({
      session: sessionArbitrary({ broken: true, maxEarlyRequests: 1 }),
      compactions: fc.integer({ min: 1, max: 2 }),
      laterFirst: fc.boolean(),
      restart: fc.constantFrom("none", "before-undo", "after-undo"),
    }),
  async check({ session, compactions, restart, laterFirst }, context) {
    const history = structuredClone(session.history) as Message[];
    const restarts = context.features?.restart === true ? restart : "none";
    let undoneIds: string[] = [];
    const { settings, before, first } = await inInstance(context, undefined, async (instance) => {
      const manager = undoingManager(context, instance);
      if (manager === undefined) return { settings: instance.settings, before: undefined, first: undefined };
      for (const message of history) await manager.addMessage(message);
      const viewBefore = await roomyView(manager);
      const ids: string[] = [];
      /** The view from before each compaction, by its receipt id. */
      const viewsBefore = new Map<string, string>();
      let current = viewBefore;
      for (let count = 0; count < compactions; count += 1) {
        const id = await compactOnce(manager, `compaction ${count + 1} of ${history.length} message(s)`);
        if (id === undefined) continue;
        ids.push(id);
        viewsBefore.set(id, current);
        current = await roomyView(manager);
      }
      // In the instance that made them, undoing the later one first gives back the view the earlier one left.
      if (laterFirst && ids.length === 2 && restarts === "none") {
        await undoAndCheck(manager, ids[1]!, [ids[1]!], viewsBefore.get(ids[1]!)!, "undoing the later of two compactions");
        await undoAndCheck(manager, ids[0]!, [ids[0]!], viewBefore, "then undoing the earlier one");
        return { settings: instance.settings, before: viewBefore, first: ids[0] };
      }
      if (ids.length === 0 || restarts === "before-undo") return { settings: instance.settings, before: viewBefore, first: ids[0] };
      undoneIds = await undoAndCheck(manager, ids[0]!, ids, viewBefore, "in the same instance");
      return { settings: instance.settings, before: viewBefore, first: ids[0] };
    });
    if (before === undefined || first === undefined || restarts === "none") return;
    await inInstance(context, settings, async (instance) => {
      const manager = undoingManager(context, instance);
      if (manager === undefined) return;
      if (restarts === "before-undo") {
        const receipts = (await manager.listCompactions()).map((receipt) => receipt.id).filter((id) => id >= first);
        undoneIds = await undoAndCheck(manager, first, receipts, before, "after a restart");
        return;
      }
      await expectUndone(manager, undoneIds, "after a restart");
      const view = await roomyView(manager);
      expectThat(
        view === before,
        () =>
          `after an undo and a restart, the view for budget ${ROOMY_BUDGET} is ${preview(view, 200)}; before the compaction it was ${preview(before, 200)}`,
      );
    });

    async function undoAndCheck(
      manager: Undoing,
      id: string,
      ids: readonly string[],
      viewBefore: string,
      where: string,
    ): Promise<string[]> {
      const result = await manager.undoCompaction(id);
      addToTally(context, "undos");
      expectThat(
        [...ids].every((undone) => result.undone.includes(undone)),
        () => `${where}: undoCompaction(${id}) reported ${preview(result.undone)} undone, not every one of ${preview(ids)}`,
      );
      const view = await roomyView(manager);
      expectThat(
        view === viewBefore,
        () =>
          `${where}: after undoCompaction(${id}), undoing ${ids.length} compaction(s), the view for budget ${ROOMY_BUDGET} is ${preview(view, 200)}; before the compaction it was ${preview(viewBefore, 200)}`,
      );
      await expectUndone(manager, ids, where);
      const again = await manager.undoCompaction(id).then(
        () => undefined,
        (error: unknown) => error,
      );
      expectThat(
        isContextErrorLike(again),
        () =>
          `${where}: a second undoCompaction(${id}) ${again === undefined ? "resolved" : `threw ${describeError(again)}`}, not a typed error`,
      );
      return [...ids];
    }
  },
});
