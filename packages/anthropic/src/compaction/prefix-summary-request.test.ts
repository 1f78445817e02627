import type { Message } from "@ctxkit/core";
import type { Provenance } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { toAnthropicMessages } from "../to-anthropic-messages.js";
import { anthropicCompactionSummarizer } from "./compaction-summarizer.js";
import { prefixSummaryRequest } from "./prefix-summary-request.js";

const view: Message[] = [
  { role: "system", content: "Use the tools.", metadata: { pinned: true } },
  { role: "user", content: "Read a.txt" },
  { role: "assistant", content: null, tool_calls: [{ id: "toolu_1", type: "function", function: { name: "read_file", arguments: "{}" } }] },
  { role: "tool", tool_call_id: "toolu_1", content: "alpha beta" },
];
const tools = [{ name: "read_file", input_schema: { type: "object" } }];

describe("prefixSummaryRequest", () => {
  it("should repeat the loop's request (caller's system first, tools, breakpoint on its last block) and add the ask to the last user turn", () => {
    const request = prefixSummaryRequest(
      { messages: view, tools, ask: "Summarize the above." },
      { model: "m", system: "You are careful." },
    );
    const loop = toAnthropicMessages(view, { targetModel: "m" });
    expect(request.system).toEqual([{ type: "text", text: "You are careful." }, ...loop.system!]);
    expect(request.tools).toBe(tools);
    expect(request.messages.slice(0, -1)).toEqual(loop.messages.slice(0, -1));
    const last = request.messages.at(-1)!.content as { type: string; cache_control?: unknown }[];
    expect(last.slice(0, -1)).toEqual(loop.messages.at(-1)!.content);
    expect(last.at(-2)!.cache_control).toEqual({ type: "ephemeral" });
    expect(last.at(-1)).toEqual({ type: "text", text: "Summarize the above." });
  });

  it("should ask in a user turn of its own after an assistant turn, and send no system or tools it was not given", () => {
    const answered: Message[] = [...view.slice(1), { role: "assistant", content: "a.txt says alpha beta." }];
    const request = prefixSummaryRequest({ messages: answered, ask: "Summarize." }, { model: "m" });
    expect(request).not.toHaveProperty("system");
    expect(request).not.toHaveProperty("tools");
    expect(request.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(request.messages.at(-1)!.content).toEqual([{ type: "text", text: "Summarize." }]);
  });
});

describe("anthropicCompactionSummarizer with a conversation", () => {
  // As contextMessages records it: the model that answered, here a dated snapshot of the summarizer's model.
  const answeredBy = (provenance: Provenance): Message[] =>
    view.map((message) => (message.role === "assistant" ? { ...message, metadata: { provenance } } : message));
  const recorded = answeredBy({ provider: "anthropic", model: "claude-sonnet-4-5-20250929" });
  const request = {
    messages: view.slice(1),
    previousSummary: undefined,
    instructions: "Summarize.",
    signal: new AbortController().signal,
    maxTokens: 300,
    conversation: { messages: recorded, tools, ask: "Summarize the above." },
  };
  const offering = (messages: Message[]) => ({ ...request, conversation: { ...request.conversation, messages } });
  function fakeClient(content: unknown[]) {
    const bodies: Record<string, unknown>[] = [];
    const create = async (body: Record<string, unknown>) => (bodies.push(body), { content, stop_reason: "end_turn" });
    return { client: { beta: { messages: { create } } } as never, bodies };
  }
  // Text for a plain request, a compaction block for a compaction request: either form answers.
  const answer = [
    { type: "text", text: "They read a.txt." },
    { type: "compaction", content: "They read a.txt." },
  ];
  /** Whether a request was the conversation plus the ask (else the compaction request over the covered messages). */
  const reusedPrefix = (body: Record<string, unknown>) => !("compaction" in body);

  it("should send one plain Messages request, bounded to twice the length asked, and answer its text", async () => {
    const { client, bodies } = fakeClient([{ type: "text", text: "They read a.txt." }]);
    expect(await anthropicCompactionSummarizer(client, { model: "claude-sonnet-4-5" })(request)).toBe("They read a.txt.");
    expect(bodies[0]).toMatchObject({ model: "claude-sonnet-4-5", max_tokens: 600, tools });
    expect(bodies[0]).not.toHaveProperty("compaction");
    expect(bodies[0]).not.toHaveProperty("betas");
  });

  it("should reuse the prefix by default only when the conversation's latest recorded provenance is the summarizer's model", async () => {
    const { client, bodies } = fakeClient(answer);
    const summarize = (model: string, messages: Message[]) => anthropicCompactionSummarizer(client, { model })(offering(messages));
    // The same model, through the AI SDK's provider id: its cache holds the prefix.
    await summarize("claude-sonnet-4-5", answeredBy({ provider: "anthropic.messages", model: "claude-sonnet-4-5" }));
    // Another (smaller) model reads nothing from that cache: the compaction request costs less.
    await summarize("claude-haiku-4-5", recorded);
    // The same model name under another provider family is another cache.
    await summarize("claude-sonnet-4-5", answeredBy({ provider: "google", model: "claude-sonnet-4-5" }));
    // No provenance (a caller that records none): whose cache it is is unknown, so the compaction request.
    await summarize("claude-sonnet-4-5", view);
    expect(bodies.map(reusedPrefix)).toEqual([true, false, false, false]);
  });

  it("should decide by default on the model the conversation was sent to, when the request named it, before provenance", async () => {
    const { client, bodies } = fakeClient(answer);
    const summarize = (model: string, messages: Message[], sentTo: string) =>
      anthropicCompactionSummarizer(client, { model })({ ...request, conversation: { ...request.conversation, messages, model: sentTo } });
    // Nothing recorded (no thinking, no compaction in the answers), but sent to a dated snapshot of the summarizer's model.
    await summarize("claude-sonnet-4-5", view, "claude-sonnet-4-5-20250929");
    // The request's model outranks provenance: the answers came from claude-sonnet-4-5, the prefix was last sent to another.
    await summarize("claude-sonnet-4-5", recorded, "claude-haiku-4-5");
    await summarize("claude-haiku-4-5", recorded, "claude-haiku-4-5");
    // Another model than the one it was sent to reads nothing from that cache.
    await summarize("claude-haiku-4-5", view, "claude-sonnet-4-5");
    expect(bodies.map(reusedPrefix)).toEqual([true, false, true, false]);
  });

  it("should follow true and false without looking at provenance", async () => {
    const { client, bodies } = fakeClient(answer);
    await anthropicCompactionSummarizer(client, { model: "claude-haiku-4-5", reuseCachedPrefix: true })(request);
    await anthropicCompactionSummarizer(client, { model: "m", reuseCachedPrefix: true })(offering(view));
    await anthropicCompactionSummarizer(client, { model: "claude-sonnet-4-5", reuseCachedPrefix: false })(request);
    expect(bodies.map(reusedPrefix)).toEqual([true, true, false]);
  });

  it("should fail with ContextSummarizerError when the model calls a tool instead, and keep the compaction request when turned off", async () => {
    const { client, bodies } = fakeClient([{ type: "tool_use", id: "toolu_2", name: "read_file", input: {} }]);
    const model = "claude-sonnet-4-5";
    await expect(anthropicCompactionSummarizer(client, { model })(request)).rejects.toMatchObject({ code: "CONTEXT_SUMMARIZER" });
    await expect(anthropicCompactionSummarizer(client, { model, reuseCachedPrefix: false })(request)).rejects.toMatchObject({
      code: "ANTHROPIC_COMPACTION",
    });
    expect(bodies[1]).toHaveProperty("compaction");
  });
});
