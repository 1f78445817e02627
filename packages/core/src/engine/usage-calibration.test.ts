import { ContextValidationError, type ContextEventMap, type Message } from "../index.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UsageCalibration } from "./usage-calibration.js";
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
  it("should never lift a view past maxTokens, whatever the provider reports (regression)", async () => {
    const long: Message[] = [systemMessage("be brief"), ...Array.from({ length: 40 }, (_, turn) => sampleTurn(turn, 600)).flat()];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 100_000 })), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 500, max: 4_000 }),
        fc.boolean(),
        async (reports, maxTokens, viaTokenBudget) => {
          const manager = await memoryContext({ tokenizer: "estimate", maxTokens });
          await manager.setMessages(long);
          // Both budget forms: an explicit (larger) request budget is capped by maxTokens as well.
          const options = viaTokenBudget ? { tokenBudget: maxTokens * 4 } : {};
          await manager.getMessagesForRequest(options);
          for (const inputTokens of reports) {
            await manager.reportUsage({ inputTokens });
            await manager.getMessagesForRequest(options);
            expect((await manager.usage())!.tokens).toBeLessThanOrEqual(maxTokens);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("UsageCalibration", () => {
  it("should shrink budgets when the provider counts more than the manager", () => {
    const calibration = new UsageCalibration();
    for (let report = 0; report < 8; report += 1) calibration.record(1_500, 1_000);
    expect(calibration.apply(1_000)).toBeLessThan(700);
  });

  it("should lift a budget by at most 2×, and never past the cap", () => {
    const calibration = new UsageCalibration();
    for (let report = 0; report < 20; report += 1) calibration.record(1, 1_000);
    expect(calibration.apply(1_000)).toBeGreaterThan(1_900);
    expect(calibration.apply(1_000)).toBeLessThanOrEqual(2_000);
    expect(calibration.apply(1_000, 1_200)).toBe(1_200);
    // A cap below the budget never shrinks it: a cap bounds the lift, and the budget was capped already.
    expect(calibration.apply(1_000, 800)).toBe(1_000);
  });
});
