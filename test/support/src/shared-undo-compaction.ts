// An undo and a partial compaction on one session that two workers share: the same tests for every shared store.
import { randomUUID } from "node:crypto";
import type { CompactResult, ContextManager } from "@ctxkit/core";
import type { CompactionReceiptCapability, CompactOptions, UndoCompactionCapability } from "@ctxkit/core/kit";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { expect, it } from "vitest";

type SharedManager = ContextManager &
  CompactionReceiptCapability &
  UndoCompactionCapability & { compact(options?: CompactOptions): Promise<CompactResult>; close(): Promise<void> };

/** A manager on the shared session `sessionId`, opened as a new worker would. */
export type OpenUndoingManager = (sessionId: string) => Promise<SharedManager>;

const BUDGET = 100_000;
const history = [systemMessage("s"), ...Array.from({ length: 6 }, (_, index) => sampleTurn(index)).flat()];

export function itSharesUndoAndPartialCompaction(open: OpenUndoingManager): void {
  it("should show a second worker the first one's undo, and rebuild the view it had compacted (regression)", async () => {
    const sessionId = randomUUID();
    const first = await open(sessionId);
    const second = await open(sessionId);
    try {
      for (const message of history) await first.addMessage(message);
      const before = await second.getMessagesForRequest({ tokenBudget: BUDGET });
      await second.compact({ tokenBudget: BUDGET });
      const compacted = await second.getMessagesForRequest({ tokenBudget: BUDGET });
      expect(JSON.stringify(compacted)).not.toBe(JSON.stringify(before));
      const [receipt] = await first.listCompactions();
      await first.undoCompaction(receipt!.id);
      // The second worker kept a view built on what the first one took back: it sees the undo at its next read.
      expect(JSON.stringify(await second.getMessagesForRequest({ tokenBudget: BUDGET }))).toBe(JSON.stringify(before));
      expect((await second.getCompaction(receipt!.id))?.undoneAt).toEqual(expect.any(String));
      await expect(second.undoCompaction(receipt!.id)).rejects.toMatchObject({ code: "CONTEXT_UNDO", reason: "already-undone" });
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("should show a second worker the first one's partial compaction, through and instructions recorded", async () => {
    const sessionId = randomUUID();
    const first = await open(sessionId);
    const second = await open(sessionId);
    try {
      for (const message of history) await first.addMessage(message);
      await first.compact({ tokenBudget: BUDGET, through: 8, instructions: "Keep the numbers." });
      expect((await second.listCompactions()).at(-1)).toMatchObject({ through: 8, hasInstructions: true });
    } finally {
      await first.close();
      await second.close();
    }
  });
}
