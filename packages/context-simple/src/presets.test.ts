import { fileURLToPath } from "node:url";
import { BUILT_IN_STRATEGIES, ContextConfigError, createCoordinator, mountPlan, type Strategy } from "@ctxkit/core";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { describe, expect, it } from "vitest";
import { createSimpleContext } from "./index.js";

const history = [systemMessage("be brief"), ...Array.from({ length: 12 }, (_, turn) => sampleTurn(turn, 600)).flat()];

/** A stand-in summary strategy that records that it ran and changes nothing. */
function recordingStrategy(): Strategy & { runs: number } {
  const strategy = { name: "summary", runs: 0, apply: (view: never) => ({ view, applied: (strategy.runs += 1) < 0 }) };
  return strategy;
}

async function stepsOf(config: Parameters<typeof createSimpleContext>[0]): Promise<string[]> {
  const manager = createSimpleContext({ tokenizer: "estimate", ...config });
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

  it("should compact at 80% of the budget down to 25% by default: few, large compactions", () => {
    const { config } = createSimpleContext({});
    expect([config.compactThreshold, config.targetRatio]).toEqual([0.8, 0.25]);
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

  it("should reject summarize without a summary strategy, and a preset beside a strategy list", () => {
    expect(() => createSimpleContext({ preset: "summarize" })).toThrow(ContextConfigError);
    expect(() => createSimpleContext({ preset: "summarize" })).toThrow(/summaryStrategy/);
    expect(() => createSimpleContext({ preset: "auto", strategies: ["truncate"] })).toThrow(/preset: give either preset or strategies/);
  });
});

describe("mount plan with built-in strategy options", () => {
  const module = fileURLToPath(new URL("./index.ts", import.meta.url));

  it("should mount context-simple with { name, options } entries from plain data", async () => {
    const coordinator = createCoordinator();
    // The previous threshold and target, so truncate stops at the window rather than going further.
    const config = { tokenizer: "estimate", compactThreshold: 0.92, targetRatio: 0.6, strategies: [{ name: "sliding-window", options: { windowSize: 6 } }, "truncate"] };
    const plan = JSON.parse(JSON.stringify({ context: { module, config } }));
    const manager = await mountPlan(coordinator, plan);
    await manager.setMessages(history);
    const view = await manager.getMessagesForRequest({ tokenBudget: 900 });
    // The system message, plus the units holding the last 6 messages: a call whose result is in the window stays.
    expect(view.map((message) => message.role)).toEqual(["system", "assistant", "tool", "assistant", "user", "assistant", "tool", "assistant"]);
    await coordinator.cleanup();
  });

  it("should report a misspelt option as a ContextConfigError naming the strategy", async () => {
    const plan = { context: { module, config: { strategies: [{ name: "sliding-window", options: { size: 6 } }] } } };
    await expect(mountPlan(createCoordinator(), plan)).rejects.toThrow(/sliding-window.*size: unknown option/);
  });
});
