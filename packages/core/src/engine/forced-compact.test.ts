import type { Message } from "../messages/message.js";
import { sampleTurn, systemMessage, userMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const history: Message[] = [systemMessage("be brief"), ...Array.from({ length: 10 }, (_, turn) => sampleTurn(turn, 600)).flat()];

describe("compact() under the threshold, like /compact", () => {
  it("should clear old tool results far under the budget, and keep the history (regression)", async () => {
    const manager = await memoryContext({
      tokenizer: "estimate",
      strategies: [{ name: "clear-tool-results", options: { keepRecent: 2 } }],
    });
    await manager.setMessages(history);
    const before = await manager.getMessagesForRequest({ tokenBudget: 1_000_000 });
    const result = await manager.compact({ tokenBudget: 1_000_000 });
    expect(result.compacted).toBe(true);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    const view = await manager.getMessagesForRequest({ tokenBudget: 1_000_000 });
    const results = view.filter((message) => message.role === "tool");
    // The two newest results stay whole; the older eight are cleared, their units intact.
    expect(results).toHaveLength(10);
    expect(results.filter((message) => String(message.content).startsWith("output "))).toHaveLength(2);
    expect(view).toHaveLength(before.length);
    expect(await manager.getMessages()).toEqual(history);
  });

  it("should report compacted: false only when nothing could be dropped, shortened or summarized", async () => {
    const manager = await memoryContext({ tokenizer: "estimate" });
    await manager.setMessages([systemMessage("be brief"), userMessage("hello")]);
    const result = await manager.compact({ tokenBudget: 1_000_000 });
    expect(result.compacted).toBe(false);
  });
});
