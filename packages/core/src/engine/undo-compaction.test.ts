import { describe, expect, it } from "vitest";
import { ContextConfigError, ContextUndoError, type Message } from "../index.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import { addAll } from "../../test/memory-context.js";
import type { Strategy } from "../pipeline/strategy.js";
import { canUndoCompaction, type UndoCompactionCapability } from "../protocol.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { createContextManager } from "./create-context-manager.js";
import { COMPACTION_STATE, UNDONE_STATE } from "./undo-compaction.js";

const BUDGET = 100_000;

const turns = (count: number): Message[] => [
  systemMessage("You are terse."),
  ...Array.from({ length: count }, (_, index) => sampleTurn(index)).flat(),
];

/** A strategy that counts its runs in its own state and records what it read, so a test can see the state it was given. */
function countingStrategy(): Strategy & { read: (number | undefined)[] } {
  const read: (number | undefined)[] = [];
  return {
    name: "counting",
    read,
    async apply(view, context) {
      const runs = context.state.get<number>("runs");
      read.push(runs);
      await context.state.set("runs", (runs ?? 0) + 1);
      return { view, applied: false };
    },
  };
}

async function compactingManager(store = new MemoryMessageStore(), keepCompactionReceipts?: number) {
  const counting = countingStrategy();
  const manager = await createContextManager({
    store,
    tokenizer: "estimate",
    strategies: [counting, "clear-tool-results", "truncate"],
    ...(keepCompactionReceipts === undefined ? {} : { keepCompactionReceipts }),
  });
  return { manager, counting, store };
}

describe("undoCompaction", () => {
  it("should give, after an undo, the view from before the compaction byte for byte, and mark it and every later one undone", async () => {
    const { manager } = await compactingManager();
    await addAll(manager, turns(6));
    const before = await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    await manager.compact({ tokenBudget: BUDGET });
    const compacted = await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    expect(JSON.stringify(compacted)).not.toBe(JSON.stringify(before));
    await manager.compact({ tokenBudget: BUDGET });
    const [first, second] = await manager.listCompactions();
    expect(await manager.undoCompaction(first!.id)).toEqual({ undone: [first!.id, second!.id] });
    const after = await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    const listed = await manager.listCompactions();
    expect(listed.map((receipt) => typeof receipt.undoneAt)).toEqual(["string", "string"]);
    expect((await manager.getCompaction(second!.id))?.undoneAt).toBe(listed[1]!.undoneAt);
    await manager.close();
  });

  it("should give back, in the process that made them, the view from before a later compaction, and build on it", async () => {
    const { manager } = await compactingManager();
    // Ten tool results: clear-tool-results keeps the newest five, so each compaction below clears one more.
    await addAll(manager, turns(10));
    await manager.compact({ tokenBudget: BUDGET, through: 4 });
    const partial = await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    await manager.compact({ tokenBudget: BUDGET, through: 8 });
    expect(JSON.stringify(await manager.getMessagesForRequest({ tokenBudget: BUDGET }))).not.toBe(JSON.stringify(partial));
    const [, second] = await manager.listCompactions();
    await manager.undoCompaction(second!.id);
    expect(JSON.stringify(await manager.getMessagesForRequest({ tokenBudget: BUDGET }))).toBe(JSON.stringify(partial));
    const next = sampleTurn(10);
    await addAll(manager, next);
    const grown = await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    expect(JSON.stringify(grown.slice(0, partial.length))).toBe(JSON.stringify(partial));
    expect(grown.slice(partial.length)).toEqual(next);
    await manager.close();
  });

  it("should put back the strategies' state as it was before the compaction, and set aside what it replaced", async () => {
    const { manager, counting, store } = await compactingManager();
    await addAll(manager, turns(4));
    await manager.compact({ tokenBudget: BUDGET });
    await manager.compact({ tokenBudget: BUDGET });
    const [first, second] = await manager.listCompactions();
    await manager.undoCompaction(second!.id);
    await manager.compact({ tokenBudget: BUDGET });
    // The third compaction read the count the first one left: the second one's was put back.
    expect(counting.read).toEqual([undefined, 1, 1]);
    await manager.undoCompaction(first!.id);
    await manager.compact({ tokenBudget: BUDGET });
    expect(counting.read.at(-1)).toBeUndefined();
    await manager.close();
    await store.open();
    const { state } = await store.load();
    // Nothing is destroyed: each undo kept the value it replaced.
    expect(state.get(UNDONE_STATE)?.get(second!.id)).toMatchObject({ receipts: [second!.id], values: [["counting", "runs", 2]] });
    expect(state.get(UNDONE_STATE)?.get(first!.id)).toMatchObject({ values: [["counting", "runs", 2]] });
    expect(state.get(COMPACTION_STATE)?.get(first!.id)).toEqual({ changes: [["counting", "runs"]] });
  });

  it("should refuse an unknown id and an id already undone with ContextUndoError, changing nothing", async () => {
    const { manager } = await compactingManager();
    await addAll(manager, turns(4));
    await manager.compact({ tokenBudget: BUDGET });
    const [receipt] = await manager.listCompactions();
    const view = await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    await expect(manager.undoCompaction("no-such-id")).rejects.toMatchObject({
      code: "CONTEXT_UNDO",
      reason: "unknown",
      receiptId: "no-such-id",
    });
    // A refused undo leaves the view as it was: the next request still builds on it.
    expect(await manager.getMessagesForRequest({ tokenBudget: BUDGET })).toEqual(view);
    await manager.undoCompaction(receipt!.id);
    const undone = await manager.undoCompaction(receipt!.id).catch((error: unknown) => error);
    expect(undone).toBeInstanceOf(ContextUndoError);
    expect(undone).toMatchObject({ reason: "already-undone", message: expect.stringMatching(/was undone at .*undoneAt/) });
    await manager.close();
  });

  it("should refuse, saying why, an undo whose saved state the keepCompactionReceipts bound dropped", async () => {
    const { manager } = await compactingManager(new MemoryMessageStore(), 1);
    await addAll(manager, turns(4));
    await manager.compact({ tokenBudget: BUDGET });
    await manager.compact({ tokenBudget: BUDGET });
    const [first, second] = await manager.listCompactions();
    await expect(manager.undoCompaction(first!.id)).rejects.toMatchObject({
      code: "CONTEXT_UNDO",
      reason: "state-dropped",
      message: expect.stringContaining("keepCompactionReceipts (1)"),
    });
    expect((await manager.listCompactions()).every((receipt) => receipt.undoneAt === undefined)).toBe(true);
    await expect(manager.undoCompaction(second!.id)).resolves.toEqual({ undone: [second!.id] });
    await manager.close();
  });

  it("should keep an undo across a reopen of the store: the receipts stay undone and the state stays put back", async () => {
    const store = new MemoryMessageStore();
    const { manager } = await compactingManager(store);
    await addAll(manager, turns(4));
    await manager.compact({ tokenBudget: BUDGET });
    const [receipt] = await manager.listCompactions();
    await manager.close();
    const reopened = await compactingManager(store);
    expect(canUndoCompaction(reopened.manager)).toBe(true);
    const undoing: UndoCompactionCapability = reopened.manager;
    await undoing.undoCompaction(receipt!.id);
    await reopened.manager.close();
    const third = await compactingManager(store);
    expect((await third.manager.getCompaction(receipt!.id))?.undoneAt).toEqual(expect.any(String));
    await third.manager.compact({ tokenBudget: BUDGET });
    expect(third.counting.read).toEqual([undefined]);
    await third.manager.close();
  });

  it("should refuse a strategy that takes a state name undo keeps its records under", async () => {
    for (const name of [COMPACTION_STATE, UNDONE_STATE]) {
      const strategy: Strategy = { name, apply: (view) => ({ view, applied: false }) };
      await expect(createContextManager({ store: new MemoryMessageStore(), strategies: [strategy] })).rejects.toBeInstanceOf(
        ContextConfigError,
      );
    }
  });
});
