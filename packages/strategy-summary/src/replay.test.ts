// Replays a 2 000-message session through a real context-simple manager, request by request.
import type { ContextEventMap, Message } from "@ctxkit/core";
import { checkToolPairs } from "@ctxkit/core/kit";
import { createSimpleContext } from "@ctxkit/context-simple";
import { describe, expect, it } from "vitest";
import { createLongSession } from "../test/long-session.js";
import { recordingSummarizer } from "../test/recording-summarizer.js";
import { createSummaryStrategy } from "./summary-strategy.js";

async function replay(messages: readonly Message[], maxTokens: number) {
  const summarizer = recordingSummarizer();
  let compactions = 0;
  let summaryApplied = false;
  const manager = createSimpleContext({
    maxTokens,
    tokenizer: "estimate",
    strategies: ["clear-tool-results", createSummaryStrategy({ summarizer }), "truncate"],
    onEvent: (event, payload) => {
      if (event === "context:pre_compact") compactions += 1;
      if (event === "context:post_compact")
        summaryApplied = (payload as ContextEventMap["context:post_compact"]).steps.some(
          (step) => step.strategy === "summary" && step.applied,
        );
    },
  });
  /** Summarizer calls made by each request, and whether that request's compaction applied a new summary. */
  const requests: Array<{ calls: number; summaryApplied: boolean }> = [];
  for (const message of messages) {
    await manager.addMessage(message);
    const callsBefore = summarizer.requests.length;
    summaryApplied = false;
    const view = await manager.getMessagesForRequest();
    requests.push({ calls: summarizer.requests.length - callsBefore, summaryApplied });
    expect(checkToolPairs(view)).toEqual([]);
  }
  return { summarizer, compactions, requests };
}

describe("a 2 000-message replay through createSimpleContext", () => {
  const session = createLongSession(2_000);

  it("should call the summarizer only on requests whose compaction applied a new summary", async () => {
    const { summarizer, compactions, requests } = await replay(session, 16_000);
    expect(session.length).toBeGreaterThanOrEqual(2_000);
    const summarized = requests.filter((request) => request.summaryApplied);
    expect(requests.filter((request) => !request.summaryApplied).every((request) => request.calls === 0)).toBe(true);
    expect(summarized.every((request) => request.calls >= 1)).toBe(true);
    expect(summarized.length).toBeGreaterThan(3);
    // clear-tool-results handles most compactions on its own; the summary runs only when it cannot.
    expect(summarized.length).toBeLessThan(compactions);
    expect(summarizer.requests.length).toBeLessThan(requests.length / 50);
  });

  it("should send every history message to the summarizer at most once, and each previous summary once", async () => {
    const { summarizer } = await replay(session, 16_000);
    const sent = summarizer.requests.flatMap((request) => request.messages.map((message) => JSON.stringify(message)));
    // Tool results are shortened before they are sent, so compare on what identifies each message.
    const identities = summarizer.requests.flatMap((request) =>
      request.messages.map((message) =>
        message.role === "tool"
          ? `tool:${message.tool_call_id}`
          : message.role === "assistant" && message.tool_calls
            ? `call:${message.tool_calls[0]!.id}`
            : `${message.role}:${String(message.content)}`,
      ),
    );
    expect(new Set(identities).size).toBe(identities.length);
    expect(sent.length).toBeLessThan(session.length);
    summarizer.requests.forEach((request, index) => {
      expect(request.previousSummary).toBe(
        index === 0 ? undefined : `summary #${index} of ${summarizer.requests[index - 1]!.messages.length} messages`,
      );
    });
  });
});
