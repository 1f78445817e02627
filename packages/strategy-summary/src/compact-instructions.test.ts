import type { Message } from "@ctxkit/core";
import { sampleTurn, systemMessage, userMessage } from "@ctxkit/core/testing";
import { createSimpleContext } from "@ctxkit/context-simple";
import { readSummaryCoverage } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { recordingSummarizer } from "../test/recording-summarizer.js";
import { buildInstructions, DEFAULT_PROMPTS } from "./prompts.js";
import { createSummaryStrategy } from "./summary-strategy.js";

const history: Message[] = [
  systemMessage("be brief"),
  ...Array.from({ length: 10 }, (_, turn) => sampleTurn(turn, 600)).flat(),
  userMessage("and now?"),
];

describe("compact({ through, instructions }) with a summary strategy", () => {
  it("should summarize only messages 0…through, with the caller's instructions last in the summarizer's prompt", async () => {
    const summarizer = recordingSummarizer();
    const manager = createSimpleContext({
      tokenizer: "estimate",
      strategies: ["clear-tool-results", createSummaryStrategy({ summarizer }), "truncate"],
    });
    await manager.setMessages(history);
    const before = await manager.getMessagesForRequest({ tokenBudget: 1_000_000 });
    // Turns 0 to 4: history messages 1 to 20.
    const through = 20;
    await manager.compact({ tokenBudget: 1_000_000, through, instructions: "Keep the output numbers." });
    expect(summarizer.requests).toHaveLength(1);
    const [request] = summarizer.requests;
    expect(request!.instructions.endsWith("Instructions for this summary: Keep the output numbers.")).toBe(true);
    expect(request!.messages.length).toBeLessThanOrEqual(through);
    const view = await manager.getMessagesForRequest({ tokenBudget: 1_000_000 });
    expect(readSummaryCoverage(view[1]!)).toBe(through);
    // Everything after `through` stands as it stood, tool results uncleared.
    expect(view.slice(2)).toEqual(before.slice(through + 1));
  });

  it("should leave the prompt as it was when no instructions are given", () => {
    expect(buildInstructions(DEFAULT_PROMPTS, false, 500, "  ")).toBe(buildInstructions(DEFAULT_PROMPTS, false, 500));
    expect(buildInstructions(DEFAULT_PROMPTS, false, 500)).not.toContain("Instructions for this summary");
  });
});
