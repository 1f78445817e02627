// Compaction receipts are kept in the journal: a reopened session lists them, fates and all.
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { describe, expect, it } from "vitest";
import { openSession } from "../test/open-session.js";
import { useTempDirectories } from "../test/temp-directory.js";

const { directory } = useTempDirectories();

describe("compaction receipts", () => {
  it("should survive a restart", async () => {
    const folder = await directory();
    const { manager, events } = await openSession(folder);
    for (const message of [systemMessage("s"), ...Array.from({ length: 6 }, (_, index) => sampleTurn(index)).flat()]) {
      await manager.addMessage(message);
    }
    await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    const receipts = await manager.listCompactions();
    const announced = events.find((recorded) => recorded.event === "context:post_compact")!.payload as { receiptId?: string };
    expect(receipts.map((receipt) => receipt.id)).toEqual([announced.receiptId]);
    const before = await manager.getCompaction(announced.receiptId!);
    await manager.close();
    const { manager: reopened } = await openSession(folder);
    expect(await reopened.listCompactions()).toEqual(receipts);
    expect(await reopened.getCompaction(announced.receiptId!)).toEqual(before);
    await reopened.close();
  });
});
