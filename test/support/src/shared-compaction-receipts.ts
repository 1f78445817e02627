// Compaction receipts on one session that two workers share: the same test for every shared store.
import { randomUUID } from "node:crypto";
import type { ContextManager } from "@ctxkit/core";
import type { CompactionReceiptCapability } from "@ctxkit/core/kit";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { expect, it } from "vitest";

/** A manager on the shared session `sessionId`, opened as a new worker would. */
export type OpenReceiptingManager = (
  sessionId: string,
) => Promise<ContextManager & CompactionReceiptCapability & { close(): Promise<void> }>;

export function itSharesCompactionReceipts(open: OpenReceiptingManager): void {
  it("should show a second worker the receipts of the first worker's compactions, fates and all", async () => {
    const sessionId = randomUUID();
    const first = await open(sessionId);
    const second = await open(sessionId);
    try {
      for (const message of [systemMessage("s"), ...Array.from({ length: 6 }, (_, index) => sampleTurn(index)).flat()]) {
        await first.addMessage(message);
      }
      await first.getMessagesForRequest({ tokenBudget: 2_000 });
      const [receipt] = await first.listCompactions();
      expect(receipt).toBeDefined();
      expect(await second.listCompactions()).toEqual([receipt]);
      const whole = await second.getCompaction(receipt!.id);
      expect(whole!.fates.at(-1)!.to).toBe(receipt!.historyLength - 1);
    } finally {
      await first.close();
      await second.close();
    }
  });
}
