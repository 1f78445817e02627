// Compaction receipts on a shared session: what one worker's compaction recorded, another worker reads.
import { randomUUID } from "node:crypto";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { expect, it } from "vitest";
import { describeWithRedis } from "../test/redis-server.js";
import { createRedisContext } from "./create-redis-context.js";

describeWithRedis("compaction receipts", (url) => {
  const open = (sessionId: string) => createRedisContext({ url, keyPrefix: "ctxkit-test:", sessionId, tokenizer: "estimate" });

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
});
