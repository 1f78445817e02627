import type { Message } from "@ctxkit/core";
import type { Provenance } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { assistant, call, result, user } from "../test/messages.js";
import { openAIChatSummarizer, type OpenAIChatClient } from "./openai-chat-summarizer.js";
import { buildPrefixSummaryAsk } from "./prefix-summary-ask.js";

type Body = Parameters<OpenAIChatClient["chat"]["completions"]["create"]>[0];

function fakeClient(content: string | null) {
  const calls: Array<{ body: Body; signal: AbortSignal | undefined }> = [];
  const client: OpenAIChatClient = {
    chat: {
      completions: {
        create: async (body, options) => (calls.push({ body, signal: options?.signal }), { choices: [{ message: { content } }] }),
      },
    },
  };
  return { client, calls };
}

const signal = new AbortController().signal;
const request = {
  messages: [
    user("Fix the login bug"),
    call("read_file", ["c1"], { path: "auth.ts" }),
    result("c1", "export function login() {}"),
    assistant("Found it."),
  ],
  previousSummary: "They set up the repo.",
  instructions: "Summarize.",
  signal,
  maxTokens: 300,
};

describe("openAIChatSummarizer", () => {
  it("should send the instructions as system, and the previous summary once plus the transcript as one user message", async () => {
    const { client, calls } = fakeClient("Summary text");
    expect(await openAIChatSummarizer(client, { model: "gpt-4o-mini" })(request)).toBe("Summary text");
    const { body, signal: sent } = calls[0]!;
    expect(body.model).toBe("gpt-4o-mini");
    expect(body.max_tokens).toBe(600);
    expect(sent).toBe(signal);
    expect(body.messages[0]).toEqual({ role: "system", content: "Summarize." });
    const text = String(body.messages[1]!.content);
    expect(text.split("They set up the repo.")).toHaveLength(2);
    expect(text).toMatch(/^<previous-summary>\nThey set up the repo\.\n<\/previous-summary>\n\n<conversation>\n/);
    expect(text).toContain('<tool-call id="c1" name="read_file">{"path":"auth.ts"}</tool-call>');
    expect(text).toContain('<message role="tool" tool_call_id="c1">\nexport function login() {}');
  });

  it("should use max_completion_tokens, or no limit, when asked", async () => {
    const { client, calls } = fakeClient("ok");
    await openAIChatSummarizer(client, { model: "o3", maxTokensField: "max_completion_tokens" })(request);
    await openAIChatSummarizer(client, { model: "local", maxTokensField: "none", temperature: 0 })(request);
    expect(calls[0]!.body).toMatchObject({ max_completion_tokens: 600 });
    expect(calls[0]!.body.max_tokens).toBeUndefined();
    expect(calls[1]!.body).not.toHaveProperty("max_tokens");
    expect(calls[1]!.body.temperature).toBe(0);
  });

  it("should fail on an answer without text, so the strategy falls back", async () => {
    const { client } = fakeClient(null);
    await expect(openAIChatSummarizer(client, { model: "m" })(request)).rejects.toThrow(/answered without text/);
  });

  it("should leave the previous-summary block out of a first summary", async () => {
    const { client, calls } = fakeClient("ok");
    await openAIChatSummarizer(client, { model: "m" })({ ...request, previousSummary: undefined });
    expect(calls[0]!.body.messages[1]!.content).not.toContain("<previous-summary>");
  });

  describe("reuseCachedPrefix", () => {
    const system = { role: "system" as const, content: "You are a coding agent.", metadata: { pinned: true } };
    const latest = user("Now add a test");
    const [asked, toolCall, toolResult, found] = request.messages as [Message, Message, Message, Message];
    // As the agent's loop records it: the model that answered, here a dated snapshot of the summarizer's model.
    const answered = (provenance: Provenance): Message => ({ ...found, metadata: { provenance } });
    const agentModel = { provider: "openai", model: "gpt-4.1-2025-04-14" };
    function conversationOf(messages: Message[]) {
      const conversation = {
        messages: [system, ...messages, latest],
        tools: [{ type: "function", function: { name: "read_file" } }],
        cover: { start: 1, end: 5, kept: [] },
        ask: "",
      };
      conversation.ask = buildPrefixSummaryAsk(request, conversation);
      return conversation;
    }
    const conversation = conversationOf([asked, toolCall, toolResult, answered(agentModel)]);
    const unrecorded = conversationOf([...request.messages]);

    /** Whether the request was the conversation plus the ask (else the transcript form, two messages and no tools). */
    function reusedPrefix(body: Body): boolean {
      if (body.messages.length === 2 && body.messages[0]!.content === "Summarize." && !("tools" in body)) return false;
      expect(body.messages).toHaveLength(7);
      expect(body).toHaveProperty("tools");
      return true;
    }

    it("should send the conversation as it was (metadata left out), its tools, then one user message asking for the run", async () => {
      const { client, calls } = fakeClient("Summary text");
      expect(await openAIChatSummarizer(client, { model: "gpt-4.1" })({ ...request, conversation })).toBe("Summary text");
      const { body } = calls[0]!;
      expect(body.messages.slice(0, 6)).toEqual([{ role: "system", content: "You are a coding agent." }, ...request.messages, latest]);
      // Unchanged messages go as the very objects, so they serialize as the agent's request did.
      expect(body.messages[1]).toBe(request.messages[0]);
      expect(body).toHaveProperty("tools", conversation.tools);
      expect(body.max_tokens).toBe(600);
      const ask = body.messages[6]!;
      expect(ask.role).toBe("user");
      expect(ask.content).toMatch(/^Summarize\.\n\n/);
      expect(ask.content).toContain(
        'from the user message that begins "Fix the login bug" through the assistant message that begins "Found it."',
      );
      expect(ask.content).toContain("<previous-summary>\nThey set up the repo.\n</previous-summary>");
      expect(body.messages).toHaveLength(7);
    });

    it("should reuse the prefix by default only when the conversation's latest recorded provenance is the summarizer's model", async () => {
      const { client, calls } = fakeClient("ok");
      const summarize = (model: string, offered: ReturnType<typeof conversationOf>) =>
        openAIChatSummarizer(client, { model })({ ...request, conversation: offered });
      // The same model, through another OpenAI provider id (the AI SDK's): its cache holds the prefix.
      await summarize("gpt-4.1", conversationOf([asked, toolCall, toolResult, answered({ provider: "openai.chat", model: "gpt-4.1" })]));
      // An older answer by another model does not count: the cache is the latest model's.
      await summarize(
        "gpt-4.1",
        conversationOf([
          asked,
          { ...toolCall, metadata: { provenance: { provider: "openai", model: "o3" } } },
          toolResult,
          answered(agentModel),
        ]),
      );
      // Another (smaller) model reads nothing from that cache: the transcript costs less.
      await summarize("gpt-4.1-mini", conversation);
      // The same model name under another provider family is another cache.
      await summarize("gpt-4.1", conversationOf([asked, toolCall, toolResult, answered({ provider: "azure", model: "gpt-4.1" })]));
      // No provenance (a caller that records none): whose cache it is is unknown, so the transcript.
      await summarize("gpt-4.1", unrecorded);
      expect(calls.map(({ body }) => reusedPrefix(body))).toEqual([true, true, false, false, false]);
    });

    it("should decide by default on the model the conversation was sent to, when the request named it, before provenance", async () => {
      const { client, calls } = fakeClient("ok");
      const summarize = (model: string, offered: ReturnType<typeof conversationOf>, sentTo: string) =>
        openAIChatSummarizer(client, { model })({ ...request, conversation: { ...offered, model: sentTo } });
      // Nothing recorded, but the request was sent to a dated snapshot of the summarizer's model: its cache holds the prefix.
      await summarize("gpt-4.1", unrecorded, "gpt-4.1-2025-04-14");
      // The request's model outranks provenance: the latest answer came from gpt-4.1, but the prefix was last sent to another.
      await summarize("gpt-4.1", conversation, "gpt-4.1-mini");
      // And the other way: an older answer by another model, the prefix sent to the summarizer's.
      await summarize("o3", conversation, "o3");
      // Another model than the one it was sent to reads nothing from that cache.
      await summarize("gpt-4.1-mini", unrecorded, "gpt-4.1");
      expect(calls.map(({ body }) => reusedPrefix(body))).toEqual([true, false, true, false]);
    });

    it("should follow true and false without looking at provenance", async () => {
      const { client, calls } = fakeClient("ok");
      await openAIChatSummarizer(client, { model: "gpt-4.1-mini", reuseCachedPrefix: true })({ ...request, conversation });
      await openAIChatSummarizer(client, { model: "m", reuseCachedPrefix: true })({ ...request, conversation: unrecorded });
      await openAIChatSummarizer(client, { model: "gpt-4.1", reuseCachedPrefix: false })({ ...request, conversation });
      expect(calls.map(({ body }) => reusedPrefix(body))).toEqual([true, true, false]);
    });

    it("should keep the transcript form when turned off, or when no conversation is offered", async () => {
      const { client, calls } = fakeClient("ok");
      await openAIChatSummarizer(client, { model: "gpt-4.1", reuseCachedPrefix: false })({ ...request, conversation });
      await openAIChatSummarizer(client, { model: "gpt-4.1" })(request);
      await openAIChatSummarizer(client, { model: "gpt-4.1", reuseCachedPrefix: true })(request);
      for (const { body } of calls) {
        expect(body.messages).toHaveLength(2);
        expect(body.messages[0]).toEqual({ role: "system", content: "Summarize." });
        expect(body).not.toHaveProperty("tools");
      }
    });

    it("should still fail with ContextSummarizerError when the model calls a tool instead of answering", async () => {
      const { client, calls } = fakeClient(null);
      await expect(openAIChatSummarizer(client, { model: "gpt-4.1" })({ ...request, conversation })).rejects.toMatchObject({
        code: "CONTEXT_SUMMARIZER",
      });
      expect(reusedPrefix(calls[0]!.body)).toBe(true);
    });
  });
});
