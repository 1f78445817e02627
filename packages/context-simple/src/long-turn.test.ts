import { ContextBudgetError, estimateCounter, type Message } from "@ctxkit/core";
import { checkToolPairs, countMessageTokens } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { createSimpleContext } from "./index.js";

/** A coding agent's single long turn: one user message, then `count` edit calls with their results. */
function longTurn(count: number): Message[] {
  const units = Array.from({ length: count }, (_, index): Message[] => {
    const id = `call_${index}`;
    const args = {
      file_path: `lib/app/module_${index}.ex`,
      old_string: "def run, do: :error",
      new_string: `def run, do: :ok # ${"keep the old clause working ".repeat(25)}`,
    };
    return [
      {
        role: "assistant",
        content: `Now module ${index}: the clause must return :ok.`,
        tool_calls: [{ id, type: "function", function: { name: "Edit", arguments: JSON.stringify(args) } }],
      },
      {
        role: "tool",
        tool_call_id: id,
        content: `The file lib/app/module_${index}.ex has been updated.\n${"   12  def run, do: :ok\n".repeat(60)}`,
      },
    ];
  });
  return [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: "Make every module's run/0 return :ok." },
    ...units.flat(),
  ];
}

const counter = estimateCounter();
const tokensOf = (messages: readonly Message[]) => messages.reduce((sum, message) => sum + countMessageTokens(message, counter), 0);

describe("a turn longer than the budget", () => {
  const history = longTurn(120);
  const budget = 12_000;

  it("was refused by the previous default, which never shortened the messages of the current turn", async () => {
    const previous = createSimpleContext({
      tokenizer: "estimate",
      compactThreshold: 0.92,
      targetRatio: 0.6,
      strategies: ["clear-tool-results", "trim-long-text", "truncate"],
    });
    await previous.setMessages(history);
    await expect(previous.getMessagesForRequest({ tokenBudget: budget })).rejects.toThrow(ContextBudgetError);
  });

  it("fits with the default: the turn's older units are shortened, its latest tool unit and the user message stay whole", async () => {
    expect(tokensOf(history)).toBeGreaterThan(5 * budget);
    const manager = createSimpleContext({ tokenizer: "estimate" });
    await manager.setMessages(history);
    const view = await manager.getMessagesForRequest({ tokenBudget: budget });
    expect(tokensOf(view)).toBeLessThanOrEqual(budget);
    expect(checkToolPairs(view)).toEqual([]);
    // Nothing of the current turn is dropped: every unit is there, the latest one as it was.
    expect(view).toHaveLength(history.length);
    expect(view.slice(0, 2)).toEqual(history.slice(0, 2));
    expect(view.slice(-2)).toEqual(history.slice(-2));
  });
});
