// anthropicCompactionSummarizer with the real Anthropic client over HTTP against the imitation's on-demand compaction.
import Anthropic from "@anthropic-ai/sdk";
import { anthropicCompactionSummarizer, CompactionSummaryError } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { createSummaryStrategy } from "@ctxkit/strategy-summary";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicImitation } from "./anthropic-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";

let server: LoopbackServer;
let client: Anthropic;
beforeAll(async () => {
  server = await startAnthropicImitation();
  client = new Anthropic({ baseURL: server.url, apiKey: "test", maxRetries: 0 });
});
afterAll(() => server.close());

const messages: Message[] = [
  { role: "user", content: "Read a.txt" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "toolu_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } }],
  },
  { role: "tool", tool_call_id: "toolu_1", content: "alpha beta" },
  { role: "assistant", content: "a.txt says alpha beta." },
];
const signal = new AbortController().signal;

describe("anthropicCompactionSummarizer", () => {
  it("should send one compaction request with the beta and the strategy's instructions, and return the block's content", async () => {
    const summarize = anthropicCompactionSummarizer(client, { model: "claude-sonnet-4-6" });
    const summary = await summarize({
      messages,
      previousSummary: "Earlier: the user set up the project.",
      instructions: "Summarize tersely.",
      signal,
    });
    expect(summary).toMatch(/^Summary of 4 messages, written with the given instructions: Summary so far:/);
    const request = server.requests.at(-1)!;
    expect(request.status).toBe(200);
    expect(request.headers["anthropic-beta"]).toContain("compact-2026-09-04");
    expect(request.body["compaction"]).toEqual({ type: "summarize", instructions: "Summarize tersely." });
    // The previous summary goes first, as a user message; the tool pair goes as tool_use and tool_result.
    const sent = request.body["messages"] as { role: string; content: { type: string }[] }[];
    expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(sent[1]!.content.map((block) => block.type)).toEqual(["tool_use"]);
  });

  it("should keep the server's own prompt when asked", async () => {
    const summarize = anthropicCompactionSummarizer(client, { model: "claude-sonnet-4-6", instructions: "server" });
    expect(await summarize({ messages, previousSummary: undefined, instructions: "ignored", signal })).toMatch(/the server's prompt/);
    expect(server.requests.at(-1)!.body["compaction"]).toEqual({ type: "summarize" });
  });

  it("should surface the API's refusal as the SDK's typed error, and no summary as a CompactionSummaryError", async () => {
    const summarize = anthropicCompactionSummarizer(client, { model: "claude-sonnet-4-6" });
    const unfinished = summarize({ messages: messages.slice(0, 2), previousSummary: undefined, instructions: "x", signal });
    await expect(unfinished).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    const withoutBeta = anthropicCompactionSummarizer(client, { model: "claude-sonnet-4-6", beta: "other-beta" });
    await expect(withoutBeta({ messages, previousSummary: undefined, instructions: "x", signal })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/compaction: Extra inputs are not permitted/),
    });
    const fakeClient = { beta: { messages: { create: async () => ({ content: [], stop_reason: "end_turn" }) } } };
    const noBlock = anthropicCompactionSummarizer(fakeClient as never, { model: "m" });
    await expect(noBlock({ messages, previousSummary: undefined, instructions: "x", signal })).rejects.toBeInstanceOf(
      CompactionSummaryError,
    );
  });
});

describe("anthropicCompactionSummarizer in the summary strategy", () => {
  it("should write the view's summary through the compaction request", async () => {
    const summarizer = anthropicCompactionSummarizer(client, { model: "claude-sonnet-4-6" });
    const context = createSimpleContext({
      maxTokens: 4_000,
      summaryStrategy: createSummaryStrategy({ summarizer, keepRecentTokens: 300, minNewTokens: 1 }),
    });
    for (let turn = 0; turn < 12; turn += 1) {
      await context.addMessage({ role: "user", content: `Question ${turn}: ${"context ".repeat(400)}` });
      await context.addMessage({ role: "assistant", content: `Answer ${turn}.` });
    }
    const before = server.requests.length;
    const view = await context.getMessagesForRequest();
    const compactions = server.requests.slice(before).filter((request) => request.body["compaction"] !== undefined);
    expect(compactions.length).toBeGreaterThan(0);
    expect(JSON.stringify(view)).toMatch(/Summary of \d+ messages, written with the given instructions/);
  });
});
