import { ContextValidationError, type ContextEventMap, type Message } from "../index.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const history: Message[] = [systemMessage("be brief"), ...Array.from({ length: 12 }, (_, turn) => sampleTurn(turn, 300)).flat()];

async function calibratedManager() {
  const calibrations: ContextEventMap["context:calibrate"][] = [];
  const manager = await memoryContext({
    tokenizer: "estimate",
    onEvent: (event, payload) => void (event === "context:calibrate" && calibrations.push(payload as ContextEventMap["context:calibrate"])),
  });
  await manager.setMessages(history);
  return { manager, calibrations };
}

describe("reportUsage", () => {
  it("should scale later budgets when the provider steadily counts more than the manager", async () => {
    const { manager, calibrations } = await calibratedManager();
    const budget = 2_000;
    await manager.getMessagesForRequest({ tokenBudget: budget });
    for (let report = 0; report < 6; report += 1) {
      const counted = (await manager.usage())!.tokens;
      await manager.reportUsage({ inputTokens: Math.round(counted * 1.5) });
      await manager.getMessagesForRequest({ tokenBudget: budget });
    }
    await manager.compact({ tokenBudget: budget });
    const usage = (await manager.usage())!;
    expect(usage.tokens * 1.5).toBeLessThanOrEqual(budget);
    expect(calibrations.length).toBeGreaterThan(0);
    expect(calibrations.at(-1)!.scale).toBeGreaterThan(1.4);
  });

  it("should do nothing before the first request", async () => {
    const { manager, calibrations } = await calibratedManager();
    await manager.reportUsage({ inputTokens: 10_000 });
    expect(calibrations).toEqual([]);
  });

  it("should reject a count that is not a finite number ≥ 0", async () => {
    const { manager } = await calibratedManager();
    await expect(manager.reportUsage({ inputTokens: Number.NaN })).rejects.toBeInstanceOf(ContextValidationError);
    await expect(manager.reportUsage({} as { inputTokens: number })).rejects.toThrow(/inputTokens/);
  });
});
