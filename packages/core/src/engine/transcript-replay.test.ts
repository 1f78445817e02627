// Replays real agent sessions message by message, as an orchestrator would, at small budgets.
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ContextBudgetError, type Message } from "../index.js";
import { checkToolPairs } from "../kit.js";
import { readMessagesFile } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const transcriptsDirectory = fileURLToPath(new URL("../../../../../shared/data/transcripts/", import.meta.url));
const exists = existsSync(transcriptsDirectory);
const files = exists
  ? readdirSync(transcriptsDirectory)
      .filter((file) => file.endsWith(".jsonl"))
      .sort()
  : [];

async function replay(messages: readonly Message[], budget: number) {
  const manager = await memoryContext({ maxTokens: budget });
  let views = 0;
  let budgetErrors = 0;
  for (const message of messages) {
    await manager.addMessage(message);
    if (message.role !== "assistant" && message.role !== "tool") continue;
    try {
      const view = await manager.getMessagesForRequest();
      expect(checkToolPairs(view)).toEqual([]);
      expect((await manager.usage())!.tokens).toBeLessThanOrEqual(budget);
      views += 1;
    } catch (error) {
      // Only a current turn that cannot fit even shortened may refuse (a long tool-calling turn
      // at a tiny budget, which only a summary can cut); it must say so with figures.
      expect(error).toBeInstanceOf(ContextBudgetError);
      expect((error as ContextBudgetError).required).toBeGreaterThan(budget);
      budgetErrors += 1;
    }
  }
  expect(await manager.getMessages()).toEqual(messages);
  return { views, budgetErrors };
}

describe.skipIf(!exists)("real transcript replay (skipped when ../shared/data/transcripts is absent)", () => {
  it.each(files)("should fit every view of %s in 32k tokens, paired", async (file) => {
    const { views, budgetErrors } = await replay(readMessagesFile(`${transcriptsDirectory}/${file}`), 32_000);
    expect(views).toBeGreaterThan(0);
    expect(budgetErrors).toBe(0);
  });

  it.each(files)("should fit every view of %s in 8k tokens or refuse with the figures", async (file) => {
    const { views, budgetErrors } = await replay(readMessagesFile(`${transcriptsDirectory}/${file}`), 8_000);
    expect(views + budgetErrors).toBeGreaterThan(0);
  });
});
