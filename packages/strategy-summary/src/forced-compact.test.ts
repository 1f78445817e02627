import type { Message } from "@ctxkit/core";
import { sampleTurn, systemMessage, userMessage } from "@ctxkit/core/testing";
import { createSimpleContext } from "@ctxkit/context-simple";
import { describe, expect, it } from "vitest";
import { recordingSummarizer } from "../test/recording-summarizer.js";
import { createSummaryStrategy } from "./summary-strategy.js";

const history: Message[] = [
  systemMessage("be brief"),
  ...Array.from({ length: 10 }, (_, turn) => sampleTurn(turn, 600)).flat(),
  userMessage("and now?"),
];

describe("compact() with a summary strategy, like /compact", () => {
  it("should summarize everything before the current turn far under the budget (regression)", async () => {
    const summarizer = recordingSummarizer();
    const manager = createSimpleContext({
      tokenizer: "estimate",
      strategies: ["clear-tool-results", createSummaryStrategy({ summarizer }), "truncate"],
    });
    await manager.setMessages(history);
    const result = await manager.compact({ tokenBudget: 1_000_000 });
    expect(result.compacted).toBe(true);
    expect(summarizer.requests).toHaveLength(1);
    const view = await manager.getMessagesForRequest({ tokenBudget: 1_000_000 });
    // The instructions, one summary of the 40 earlier messages, and the current turn.
    expect(view).toHaveLength(3);
    expect(view[0]).toEqual(history[0]);
    expect(view[1]!.metadata?.ctxkit?.source).toBe("summary");
    expect(view[2]).toEqual(history.at(-1));
    expect(await manager.getMessages()).toEqual(history);
  });
});
