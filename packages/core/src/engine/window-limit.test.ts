import type { Message } from "../messages/message.js";
import { assistantMessage, systemMessage, userMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

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
});
