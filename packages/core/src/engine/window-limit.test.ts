import type { Message } from "../messages/message.js";
import { assistantMessage, systemMessage, userMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { addAll, memoryContext } from "../../test/memory-context.js";

const isCounted = (message: Message, view: readonly Message[]) => message.role !== "system" && message !== view.at(-1);

describe("sliding-window on every request", () => {
  it("should never send more than windowSize messages, whatever the budget (regression)", async () => {
    const reasons: unknown[] = [];
    const manager = await memoryContext({
      tokenizer: "estimate",
      strategies: [{ name: "sliding-window", options: { windowSize: 10 } }],
      onEvent: (event, payload) => void (event === "context:pre_compact" && reasons.push((payload as { reason?: unknown }).reason)),
    });
    await manager.addMessage(systemMessage("be brief"));
    let previous: Message[] = [];
    let moves = 0;
    for (let turn = 0; turn < 40; turn += 1) {
      await manager.addMessage(userMessage(`question ${turn}`));
      const view = await manager.getMessagesForRequest({ tokenBudget: 1_000_000 });
      // The system message and the latest user message are protected, and not counted.
      expect(view.filter((message) => isCounted(message, view)).length).toBeLessThanOrEqual(10);
      const extendsPrevious = previous.every((message, index) => view[index] === message);
      if (!extendsPrevious) moves += 1;
      previous = view;
      await manager.addMessage(assistantMessage(`answer ${turn}`));
    }
    expect((await manager.getMessages()).length).toBe(81);
    // Moved in steps (a quarter of the window): the prefix holds between moves instead of breaking on every message.
    expect(moves).toBeGreaterThan(5);
    expect(moves).toBeLessThanOrEqual(20);
    expect(reasons.every((reason) => reason === "limit")).toBe(true);
  });

  it("should hold the window when a view grows back for a larger budget, so the repeat does not compact again (regression)", async () => {
    const reasons: unknown[] = [];
    const manager = await memoryContext({
      tokenizer: "estimate",
      strategies: [{ name: "sliding-window", options: { windowSize: 4 } }, "truncate"],
      onEvent: (event, payload) => void (event === "context:pre_compact" && reasons.push((payload as { reason?: unknown }).reason)),
    });
    await addAll(manager, [userMessage("question 0"), assistantMessage("answer 0"), userMessage("question 1")]);
    // A budget too small for anything leaves a view compacted for it (the latest question alone)…
    await expect(manager.getMessagesForRequest({ tokenBudget: 1 })).rejects.toThrow();
    // …within the window once four more arrive, while the whole history is not; a far larger budget grows it back.
    await addAll(manager, [assistantMessage("answer 1"), userMessage("question 2"), assistantMessage("answer 2"), userMessage("q 3")]);
    const grown = await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    expect(grown.filter((message) => isCounted(message, grown)).length).toBeLessThanOrEqual(4);
    expect(reasons.at(-1)).toBe("budget-change");
    const compactions = reasons.length;
    expect(await manager.getMessagesForRequest({ tokenBudget: 100_000 })).toEqual(grown);
    expect(reasons.length).toBe(compactions);
  });

  it("should take the window's step from a config's strategy list, and refuse a step that is not below the window", async () => {
    await expect(memoryContext({ strategies: [{ name: "sliding-window", options: { windowSize: 8, step: 2 } }] })).resolves.toBeDefined();
    await expect(memoryContext({ strategies: [{ name: "sliding-window", options: { windowSize: 8, step: 8 } }] })).rejects.toMatchObject({
      code: "CONTEXT_CONFIG",
    });
  });
});
