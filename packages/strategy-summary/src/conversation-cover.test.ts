import type { Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { assistant, system, turn, user } from "../test/messages.js";
import { recordingSummarizer } from "../test/recording-summarizer.js";
import { createFreshView, createTestContext, freezeHistory } from "../test/strategy-context.js";
import { coverInConversation } from "./conversation-cover.js";
import type { SummarizerRequest } from "./summarizer.js";
import { createSummaryStrategy } from "./summary-strategy.js";

const history = freezeHistory([system("rules"), ...turn(0, 2), ...turn(1, 2), user("and now?")]);
const ask = { instructions: "Summarize.", previousSummary: undefined };

describe("coverInConversation", () => {
  it("should find a run of the conversation by identity, and name its ends in the ask", () => {
    const conversation = coverInConversation({ messages: history, tools: ["tool"] }, history.slice(1, 7), ask)!;
    expect(conversation.cover).toEqual({ start: 1, end: 7, kept: [] });
    expect(conversation.tools).toEqual(["tool"]);
    expect(conversation).not.toHaveProperty("model");
    expect(conversation.ask).toMatch(/^Summarize\.\n\n/);
    expect(conversation.ask).toContain(
      'from the user message that begins "request 0" through the assistant message that begins "answer 0"',
    );
  });

  it("should carry the model the previous request was sent to", () => {
    const conversation = coverInConversation({ messages: history, model: "gpt-4.1" }, history.slice(1, 7), ask)!;
    expect(conversation.model).toBe("gpt-4.1");
    expect(conversation.tools).toBeUndefined();
  });

  it("should name the few messages inside the run that stay", () => {
    const covered = [...history.slice(1, 6), history[7]!];
    const conversation = coverInConversation({ messages: history }, covered, ask)!;
    expect(conversation.cover).toEqual({ start: 1, end: 8, kept: [6] });
    expect(conversation.ask).toContain('except the assistant message that begins "answer 0", which stays as it is');
  });

  it("should offer nothing for a message the conversation held changed, or not at all, or out of order", () => {
    const shortened: Message = { ...history[3]!, content: "[cleared]" };
    expect(coverInConversation({ messages: history }, [history[1]!, history[2]!, { ...history[3]! }], ask)).toBeUndefined();
    expect(coverInConversation({ messages: [...history.slice(0, 3), shortened] }, history.slice(1, 4), ask)).toBeUndefined();
    expect(coverInConversation({ messages: history }, [history[2]!, history[1]!], ask)).toBeUndefined();
    expect(coverInConversation(undefined, history.slice(1, 4), ask)).toBeUndefined();
  });

  it("should offer nothing when more than a few messages inside the run stay", () => {
    const every = history.filter((_, index) => index % 2 === 1);
    expect(coverInConversation({ messages: history }, every, ask)).toBeUndefined();
  });
});

describe("the summary strategy's conversation", () => {
  it("should hand the summarizer the previous request when what it covers is there, and nothing otherwise", async () => {
    const summarizer = recordingSummarizer();
    const offered: (SummarizerRequest["conversation"] | undefined)[] = [];
    const strategy = createSummaryStrategy({
      keepRecentTokens: 300,
      minNewTokens: 1,
      maxSummaryTokens: 40,
      summarizer: (request) => (offered.push(request.conversation), summarizer(request)),
    });
    const session = freezeHistory([system("rules"), ...turn(0, 2), ...turn(1, 2), ...turn(2, 2), assistant("done")]);
    const context = createTestContext({ history: session });
    await strategy.apply(createFreshView(session), { ...context, previousRequest: { messages: session, tools: ["tool"] } });
    await strategy.apply(createFreshView(session), createTestContext({ history: session }));
    expect(offered[0]?.messages).toBe(session);
    expect(offered[0]?.tools).toEqual(["tool"]);
    expect(summarizer.requests[0]!.messages).toEqual(session.slice(offered[0]!.cover.start, offered[0]!.cover.end));
    expect(offered[1]).toBeUndefined();
  });
});
