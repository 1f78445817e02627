import { fileURLToPath } from "node:url";
import { ContextConfigError, createCoordinator, mountPlan, type Strategy } from "@ctxkit/core";
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
  it("should run clear, trim and truncate for truncate, and for auto without a summary strategy", async () => {
    const defaults = await stepsOf({});
    expect(defaults[0]).toBe("clear-tool-results");
    expect(["clear-tool-results", "trim-long-text", "truncate"]).toEqual(expect.arrayContaining(defaults));
    expect(await stepsOf({ preset: "truncate" })).toEqual(defaults);
    expect(await stepsOf({ preset: "auto" })).toEqual(defaults);
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
    const plan = JSON.parse(
      JSON.stringify({
        context: {
          module,
          config: { tokenizer: "estimate", strategies: [{ name: "sliding-window", options: { windowSize: 6 } }, "truncate"] },
        },
      }),
    );
    const manager = await mountPlan(coordinator, plan);
    await manager.setMessages(history);
    const view = await manager.getMessagesForRequest({ tokenBudget: 900 });
    // The system message and the current turn, plus the newest whole units that fit the window of 6 moved back a step (to 5).
    expect(view.map((message) => message.role)).toEqual([
      "system",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    await coordinator.cleanup();
  });

  it("should report a misspelt option as a ContextConfigError naming the strategy", async () => {
    const plan = { context: { module, config: { strategies: [{ name: "sliding-window", options: { size: 6 } }] } } };
    await expect(mountPlan(createCoordinator(), plan)).rejects.toThrow(/sliding-window.*size: unknown option/);
  });
});
