import type { Message } from "@ctxkit/core";
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
  const request = {
    messages: view.slice(1),
    previousSummary: undefined,
    instructions: "Summarize.",
    signal: new AbortController().signal,
    maxTokens: 300,
    conversation: { messages: view, tools, ask: "Summarize the above." },
  };
  function fakeClient(content: unknown[]) {
    const bodies: Record<string, unknown>[] = [];
    const create = async (body: Record<string, unknown>) => (bodies.push(body), { content, stop_reason: "end_turn" });
    return { client: { beta: { messages: { create } } } as never, bodies };
  }

  it("should send one plain Messages request, bounded to twice the length asked, and answer its text", async () => {
    const { client, bodies } = fakeClient([{ type: "text", text: "They read a.txt." }]);
    expect(await anthropicCompactionSummarizer(client, { model: "m" })(request)).toBe("They read a.txt.");
    expect(bodies[0]).toMatchObject({ model: "m", max_tokens: 600, tools });
    expect(bodies[0]).not.toHaveProperty("compaction");
    expect(bodies[0]).not.toHaveProperty("betas");
  });

  it("should fail with ContextSummarizerError when the model calls a tool instead, and keep the compaction request when turned off", async () => {
    const { client, bodies } = fakeClient([{ type: "tool_use", id: "toolu_2", name: "read_file", input: {} }]);
    await expect(anthropicCompactionSummarizer(client, { model: "m" })(request)).rejects.toMatchObject({ code: "CONTEXT_SUMMARIZER" });
    await expect(anthropicCompactionSummarizer(client, { model: "m", reuseCachedPrefix: false })(request)).rejects.toMatchObject({
      code: "ANTHROPIC_COMPACTION",
    });
    expect(bodies[1]).toHaveProperty("compaction");
  });
});
