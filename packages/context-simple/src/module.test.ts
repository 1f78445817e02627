import { fileURLToPath } from "node:url";
import { createCoordinator, mountPlan } from "@ctxkit/core";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { describe, expect, it } from "vitest";

const history = [systemMessage("be brief"), ...Array.from({ length: 12 }, (_, turn) => sampleTurn(turn, 600)).flat()];

describe("mount plan with built-in strategy options", () => {
  const module = fileURLToPath(new URL("./index.ts", import.meta.url));

  it("should mount context-simple with { name, options } entries from plain data", async () => {
    const coordinator = createCoordinator();
    const plan = JSON.parse(
      JSON.stringify({
        context: {
          module,
          // The previous threshold and target, so truncate stops at the window rather than going further.
          config: {
            tokenizer: "estimate",
            compactThreshold: 0.92,
            targetRatio: 0.6,
            strategies: [{ name: "sliding-window", options: { windowSize: 6 } }, "truncate"],
          },
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
    await expect(mountPlan(createCoordinator(), plan)).rejects.toThrow(/sliding-window.*size: unknown key/);
  });
});
