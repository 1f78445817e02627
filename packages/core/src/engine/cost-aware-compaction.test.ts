// The manager compacts below its threshold when the rewrite pays, or after the cache expired, and its receipts say why.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CompactionSummary, ContextManager } from "../protocol.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import { memoryContext } from "../../test/memory-context.js";
import type { ContextConfig } from "./context-config.js";

const BUDGET = 20_000;

/** Adds turns of ~500 tokens one by one, a request after each, until a compaction or `turns`; returns the receipts. */
async function growUntilCompaction(config: ContextConfig, turns = 60, prepare?: (manager: ContextManager) => Promise<void>) {
  const manager = await memoryContext({ tokenizer: "estimate", ...config });
  await prepare?.(manager);
  await manager.addMessage(systemMessage("be brief"));
  let served = 0;
  for (let turn = 0; turn < turns; turn += 1) {
    for (const message of sampleTurn(turn, 2_000)) await manager.addMessage(message);
    await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    if ((await manager.listCompactions()).length > 0) break;
    served += 1;
  }
  const compactions = await manager.listCompactions();
  return { manager, compactions, served };
}

describe("compaction under prompt-cache pricing", () => {
  afterEach(() => void vi.useRealTimers());

  it("should compact past the threshold once the reads saved repay the rewrite risked, with the figures in the receipt", async () => {
    const { compactions, served } = await growUntilCompaction({});
    const [receipt] = compactions as [CompactionSummary];
    expect(receipt.reason).toBe("threshold");
    expect(receipt.tokensBefore).toBeGreaterThan(0.7 * BUDGET);
    expect(receipt.tokensBefore).toBeLessThanOrEqual(BUDGET);
    expect(receipt.decision).toMatchObject({ trigger: "saving", target: 0.2 * BUDGET, isCacheExpired: false });
    expect(receipt.decision!.expectedSaving).toBeGreaterThanOrEqual(receipt.decision!.rewriteCost);
    expect(receipt.decision!.growthPerRequest).toBeGreaterThan(0);
    expect(receipt.decision!.deferredRequests).toBeLessThanOrEqual(served);
    expect(receipt.target).toBe(receipt.decision!.target);
  });

  it("should decide after an empty request and clear() as a fresh instance does: an empty view says nothing of the pace", async () => {
    const fresh = await growUntilCompaction({});
    const cleared = await growUntilCompaction({}, 60, async (manager) => {
      await manager.getMessagesForRequest({ tokenBudget: BUDGET });
      await manager.clear();
      await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    });
    const [freshReceipt] = fresh.compactions as [CompactionSummary];
    const [clearedReceipt] = cleared.compactions as [CompactionSummary];
    expect(clearedReceipt.decision).toEqual(freshReceipt.decision);
    expect(clearedReceipt.tokensBefore).toBe(freshReceipt.tokensBefore);
  });

  it("should defer until the budget forces it when cache reads cost next to nothing, and count the deferrals", async () => {
    const { compactions } = await growUntilCompaction({ cachePricing: { read: 0.000_1, write: 1 } });
    const [receipt] = compactions as [CompactionSummary];
    expect(receipt.tokensBefore).toBeGreaterThan(BUDGET);
    expect(receipt.decision).toMatchObject({ trigger: "budget" });
    expect(receipt.decision!.deferredRequests).toBeGreaterThan(0);
  });

  it("should compact a view halfway to its threshold after a pause longer than the cache lives, at no rewrite cost", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const manager = await memoryContext({ tokenizer: "estimate" });
    await manager.addMessage(systemMessage("be brief"));
    for (let turn = 0; turn < 22; turn += 1) {
      for (const message of sampleTurn(turn, 2_000)) await manager.addMessage(message);
      await manager.getMessagesForRequest({ tokenBudget: BUDGET });
      vi.setSystemTime(Date.now() + 10_000);
    }
    expect(await manager.listCompactions()).toEqual([]);
    const usage = await manager.usage();
    expect(usage!.tokens).toBeGreaterThan(0.45 * BUDGET);
    expect(usage!.tokens).toBeLessThanOrEqual(0.7 * BUDGET);
    vi.setSystemTime(Date.now() + 6 * 60_000);
    await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    const [receipt] = await manager.listCompactions();
    expect(receipt).toMatchObject({ reason: "threshold" });
    expect(receipt!.decision).toMatchObject({ trigger: "cache-expired", rewriteCost: 0, isCacheExpired: true });
    expect(receipt!.tokensAfter).toBeLessThan(receipt!.tokensBefore);
  });

  it("should keep the receipt's decision through getCompaction", async () => {
    const { manager, compactions } = await growUntilCompaction({});
    const receipt = await manager.getCompaction(compactions[0]!.id);
    expect(receipt!.decision).toEqual(compactions[0]!.decision);
  });

  it("should leave no decision on a compaction the manager did not choose (forced)", async () => {
    const { manager } = await growUntilCompaction({}, 3);
    await manager.compact({ tokenBudget: BUDGET });
    const compactions = await manager.listCompactions();
    expect(compactions.at(-1)).toMatchObject({ reason: "forced" });
    expect(compactions.at(-1)!.decision).toBeUndefined();
  });
});
