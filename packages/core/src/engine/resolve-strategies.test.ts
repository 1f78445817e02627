import type { ContextConfig } from "./context-config.js";
import { ContextConfigError } from "../index.js";
import type { Strategy } from "../kit.js";
import { BUILT_IN_STRATEGIES } from "../strategies/built-in-strategies.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const history = [systemMessage("be brief"), ...Array.from({ length: 12 }, (_, turn) => sampleTurn(turn, 600)).flat()];

/** A stand-in summary strategy that records that it ran and changes nothing. */
function recordingStrategy(): Strategy & { runs: number } {
  const strategy = { name: "summary", runs: 0, apply: (view: never) => ({ view, applied: (strategy.runs += 1) < 0 }) };
  return strategy;
}

async function stepsOf(config: ContextConfig): Promise<string[]> {
  const manager = await memoryContext({ tokenizer: "estimate", ...config });
  await manager.setMessages(history);
  const result = await manager.compact({ tokenBudget: 600 });
  return result.steps.map((step) => step.strategy);
}

describe("preset", () => {
  it("should run the default pipeline (clear, trim, truncate, shorten-to-fit) for truncate, and for auto without a summary strategy", async () => {
    const defaults = await stepsOf({});
    expect(defaults[0]).toBe("clear-tool-results");
    expect([...BUILT_IN_STRATEGIES]).toEqual(expect.arrayContaining(defaults));
    expect(await stepsOf({ preset: "truncate" })).toEqual(defaults);
    expect(await stepsOf({ preset: "auto" })).toEqual(defaults);
  });

  it("should compact from 70% of the budget down to 20% by default, under Anthropic's cache prices: few, large compactions", async () => {
    const { config } = await memoryContext({});
    expect([config.compactThreshold, config.targetRatio, config.cachePricing]).toEqual([0.7, 0.2, "anthropic"]);
  });

  it("should run the summary strategy between clearing and truncating for auto and summarize when one is given", async () => {
    for (const preset of ["auto", "summarize"] as const) {
      const summaryStrategy = recordingStrategy();
      expect(await stepsOf({ preset, summaryStrategy })).toEqual(["clear-tool-results", "summary", "truncate"]);
      expect(summaryStrategy.runs).toBe(1);
    }
  });

  it("should ignore the summary strategy for truncate", async () => {
    const summaryStrategy = recordingStrategy();
    await stepsOf({ preset: "truncate", summaryStrategy });
    expect(summaryStrategy.runs).toBe(0);
  });

  it("should reject summarize without a summary strategy, and a preset beside a strategy list", async () => {
    await expect(memoryContext({ preset: "summarize" })).rejects.toThrow(ContextConfigError);
    await expect(memoryContext({ preset: "summarize" })).rejects.toThrow(/summaryStrategy/);
    await expect(memoryContext({ preset: "auto", strategies: ["truncate"] })).rejects.toThrow(/preset: give either preset or strategies/);
  });
});
