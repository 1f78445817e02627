// Every kind of compaction leaves a receipt: each CompactionReason, and a compaction refused for the budget.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ContextBudgetError, microcompact, type CompactionReason, type ContextEventMap } from "../index.js";
import { sampleTurn, systemMessage, userMessage } from "../testing/index.js";
import { memoryContext } from "../../test/memory-context.js";
import type { ContextConfig } from "./context-config.js";

const history = [systemMessage("be brief"), ...Array.from({ length: 6 }, (_, turn) => sampleTurn(turn, 1_000)).flat()];

async function managerWith(config: ContextConfig = {}) {
  const announced: ContextEventMap["context:post_compact"][] = [];
  const manager = await memoryContext({
    tokenizer: "estimate",
    ...config,
    onEvent: (event, payload) => {
      if (event === "context:post_compact") announced.push(payload as ContextEventMap["context:post_compact"]);
    },
  });
  await manager.setMessages(history);
  return { manager, announced };
}

/** The reasons of the receipts listed, and that each announced compaction's receipt is among them. */
async function receiptReasons(manager: Awaited<ReturnType<typeof managerWith>>["manager"], announced: { receiptId?: string }[]) {
  const receipts = await manager.listCompactions();
  for (const { receiptId } of announced) expect(receipts.map((receipt) => receipt.id)).toContain(receiptId);
  return receipts.map((receipt) => receipt.reason);
}

describe("a receipt for every compaction", () => {
  afterEach(() => void vi.useRealTimers());

  it("should record threshold, forced, budget-change and overflow compactions", async () => {
    const { manager, announced } = await managerWith();
    await manager.getMessagesForRequest({ tokenBudget: 1_500 });
    await manager.compact({ tokenBudget: 1_500 });
    await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    await manager.recoverOverflow(new Error("context_length_exceeded"), { tokenBudget: 100_000 });
    const reasons: CompactionReason[] = ["threshold", "forced", "budget-change", "overflow"];
    expect(await receiptReasons(manager, announced)).toEqual(reasons);
  });

  it("should record a window limit's compaction", async () => {
    const { manager, announced } = await managerWith({ strategies: [{ name: "sliding-window", options: { windowSize: 4 } }] });
    await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    expect(await receiptReasons(manager, announced)).toEqual(["limit"]);
    const receipt = await manager.getCompaction((await manager.listCompactions())[0]!.id);
    expect(receipt!.fates.some((run) => run.fate === "dropped" && run.strategy === "sliding-window")).toBe(true);
  });

  it("should record a compaction after a pause", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const strategies = [microcompact({ idleMs: 60_000, keepRecent: 1, isClearable: () => true }), "truncate" as const];
    const { manager, announced } = await managerWith({ strategies });
    await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    vi.setSystemTime(Date.now() + 120_000);
    await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    expect(await receiptReasons(manager, announced)).toEqual(["idle"]);
    const receipt = await manager.getCompaction((await manager.listCompactions())[0]!.id);
    expect(receipt!.fateCounts.cleared).toBe(5);
  });

  it("should record a compaction refused for the budget: its smaller view stands", async () => {
    const { manager } = await managerWith();
    await manager.addMessage(userMessage("now ".repeat(2_000)));
    await expect(manager.getMessagesForRequest({ tokenBudget: 600 })).rejects.toThrow(ContextBudgetError);
    const [receipt] = await manager.listCompactions();
    expect(receipt).toMatchObject({ reason: "threshold", budget: 600 });
    expect(receipt!.tokensAfter).toBeGreaterThan(600);
  });
});
