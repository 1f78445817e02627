import type { Message } from "../index.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const history: Message[] = [systemMessage("be brief"), ...Array.from({ length: 10 }, (_, turn) => sampleTurn(turn, 400)).flat()];

async function managerWith(messages: readonly Message[]) {
  const manager = await memoryContext({ tokenizer: "estimate" });
  await manager.setMessages([...messages]);
  return manager;
}

describe("recoverOverflow", () => {
  it("should shrink only the budget that overflowed, not a later, larger one (regression)", async () => {
    const manager = await managerWith(history);
    await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    await manager.recoverOverflow(new Error("context_length_exceeded"), { tokenBudget: 2_000 });
    expect((await manager.usage())!.budget).toBeLessThan(2_000);
    await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    expect((await manager.usage())!.budget).toBe(100_000);
  });

  it("should stay below the rejected size at that budget, then relax as requests succeed (regression)", async () => {
    const manager = await managerWith(history);
    await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    await manager.recoverOverflow(new Error("context_length_exceeded"), { tokenBudget: 2_000 });
    const shrunk = (await manager.usage())!.budget;
    await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    const next = (await manager.usage())!.budget;
    expect(next).toBeLessThan(2_000);
    expect(next).toBeGreaterThanOrEqual(shrunk);
    for (let request = 0; request < 100; request += 1) await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    expect((await manager.usage())!.budget).toBe(2_000);
  });

  it("should stop at the minimal view when 75% of the rejected view is below it, and serve it (regression)", async () => {
    // Instructions no compaction may touch take most of the view, so 75% of it cannot hold them.
    const instructions = systemMessage("Follow the build rules in order and report each step. ".repeat(125));
    const manager = await managerWith([instructions, ...history.slice(-16)]);
    // A budget the view fits under the threshold, so the first request serves it whole.
    await manager.getMessagesForRequest({ tokenBudget: 3_300 });
    const rejected = (await manager.usage())!.tokens;
    const view = await manager.recoverOverflow(new Error("context_length_exceeded"), { tokenBudget: 3_300 });
    const usage = (await manager.usage())!;
    expect(usage.tokens).toBeGreaterThan(0.75 * rejected);
    expect(usage.tokens).toBeLessThan(rejected);
    expect(usage.tokens).toBeLessThanOrEqual(usage.budget);
    expect(view[0]).toEqual(instructions);
    expect(view.at(-1)).toEqual(history.at(-1));
    // The next request at that budget starts from the held shrink, not below it.
    await manager.getMessagesForRequest({ tokenBudget: 3_300 });
    expect((await manager.usage())!.budget).toBeGreaterThanOrEqual(usage.budget);
  });

  it("should be forgotten by setMessages (regression)", async () => {
    const manager = await managerWith(history);
    await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    await manager.recoverOverflow(new Error("context_length_exceeded"), { tokenBudget: 2_000 });
    await manager.setMessages(history);
    await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    expect((await manager.usage())!.budget).toBe(2_000);
  });
});

describe("a larger budget", () => {
  it("should let a view compacted for a tiny budget grow back, as a fresh manager builds it (regression)", async () => {
    const manager = await managerWith(history);
    const tiny = await manager.getMessagesForRequest({ tokenBudget: 700 });
    const grown = await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    expect(tiny.length).toBeLessThan(history.length);
    expect(grown).toEqual(history);
    const fresh = await managerWith(history);
    expect(await fresh.getMessagesForRequest({ tokenBudget: 100_000 })).toEqual(grown);
  });

  it("should keep the prefix stable while the budget stays the same", async () => {
    const manager = await managerWith(history);
    await manager.getMessagesForRequest({ tokenBudget: 700 });
    const first = await manager.getMessagesForRequest({ tokenBudget: 800 });
    const second = await manager.getMessagesForRequest({ tokenBudget: 800 });
    expect(second).toEqual(first);
  });
});
