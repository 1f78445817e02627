import type { ContextEventMap } from "@ctxkit/core";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { createSimpleContext } from "@ctxkit/context-simple";
import { describe, expect, it } from "vitest";
import { createSummaryStrategy } from "./summary-strategy.js";

describe("context:include for a summary", () => {
  it("should carry the history range the summary stands for", async () => {
    const included: Array<ContextEventMap["context:include"]> = [];
    const manager = createSimpleContext({
      tokenizer: "estimate",
      protectFirst: 1,
      strategies: [createSummaryStrategy({ keepRecentTokens: 300 })],
      onEvent: (event, payload) => void (event === "context:include" && included.push(payload as ContextEventMap["context:include"])),
    });
    await manager.setMessages([systemMessage("be brief"), ...Array.from({ length: 12 }, (_, turn) => sampleTurn(turn, 600)).flat()]);
    const view = await manager.getMessagesForRequest({ tokenBudget: 1_200 });
    const summary = view.find((message) => message.metadata?.ctxkit?.source === "summary");
    expect(summary).toBeDefined();
    const coveredThrough = (summary!.metadata!.ctxkit!["summary"] as { coveredThrough: number }).coveredThrough;
    // The system message is kept verbatim (protectFirst 1), so the summary starts right after it.
    expect(included).toEqual([{ source: "summary", messageCount: 1, tokenCount: expect.any(Number), coveredFrom: 1, coveredThrough }]);
  });
});
