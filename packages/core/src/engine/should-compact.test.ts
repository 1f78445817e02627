import type { ContextEventMap } from "../index.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const history = [systemMessage("be brief"), ...Array.from({ length: 12 }, (_, turn) => sampleTurn(turn, 300)).flat()];

describe("shouldCompact", () => {
  it("should say whether the next request compacts, without compacting", async () => {
    const reasons: unknown[] = [];
    const manager = await memoryContext({
      tokenizer: "estimate",
      onEvent: (event, payload) =>
        void (event === "context:pre_compact" && reasons.push((payload as ContextEventMap["context:pre_compact"]).reason)),
    });
    await manager.setMessages(history);
    expect(await manager.shouldCompact({ tokenBudget: 100_000 })).toBe(false);
    expect(await manager.shouldCompact({ tokenBudget: 800 })).toBe(true);
    expect(reasons).toEqual([]);
    await manager.getMessagesForRequest({ tokenBudget: 800 });
    expect(await manager.shouldCompact({ tokenBudget: 800 })).toBe(false);
    await manager.compact({ tokenBudget: 800 });
    await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    expect(reasons).toEqual(["threshold", "forced", "budget-change"]);
  });
});
