import { ContextValidationError, type ContextEventMap, type Message } from "@ctxkit/core";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSimpleContext } from "./index.js";

const history: Message[] = [systemMessage("be brief"), ...Array.from({ length: 12 }, (_, turn) => sampleTurn(turn, 300)).flat()];

async function calibratedManager() {
  const calibrations: ContextEventMap["context:calibrate"][] = [];
  const manager = createSimpleContext({
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
          const manager = createSimpleContext({ tokenizer: "estimate", maxTokens });
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
