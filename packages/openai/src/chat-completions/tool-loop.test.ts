import { checkToolPairs } from "@ctxkit/core/kit";
import { createSimpleContext } from "@ctxkit/context-simple";
import { describe, expect, it } from "vitest";
import { mockOpenAI, textReply, toolCallReply } from "../../test/__fixtures__/mock-openai.js";
import { fromChatCompletionMessage } from "./from-chat-completion-messages.js";
import { toChatCompletionMessages } from "./to-chat-completion-messages.js";

describe("a tool-calling loop through client.chat.completions.create", () => {
  it("should send only provider-clean messages with whole tool pairs, and keep the whole history", async () => {
    const { client, requests } = mockOpenAI([
      toolCallReply("call_1", "read_file", { path: "a.txt" }),
      toolCallReply("call_2", "read_file", { path: "b.txt" }),
      textReply("Both files say hello."),
    ]);
    const context = createSimpleContext({ maxTokens: 2_000, tokenizer: "estimate" });
    await context.addMessage({ role: "system", content: "You read files.", metadata: { pinned: true } });
    await context.addMessage({ role: "user", content: "What do a.txt and b.txt say?", metadata: { traceId: "t-1" } });

    for (let step = 0; step < 5; step += 1) {
      const completion = await client.chat.completions.create({
        model: "gpt-test",
        messages: toChatCompletionMessages(await context.getMessagesForRequest()),
      });
      const reply = completion.choices[0]!.message;
      await context.addMessage(fromChatCompletionMessage(reply));
      if (reply.tool_calls === undefined) break;
      for (const call of reply.tool_calls) {
        await context.addMessage({
          role: "tool",
          tool_call_id: call.id,
          content: `hello from ${call.type === "function" ? call.function.arguments : ""}`,
          metadata: { pinned: false },
        });
      }
    }

    expect(requests).toHaveLength(3);
    for (const request of requests) {
      for (const message of request.messages) expect(message).not.toHaveProperty("metadata");
      expect(checkToolPairs(asCtxkitMessages(request.messages))).toEqual([]);
    }
    expect(requests[2]!.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool"]);
    const history = await context.getMessages();
    expect(history).toHaveLength(7);
    expect(history.at(-1)).toEqual({ role: "assistant", content: "Both files say hello." });
  });

  it("should keep tool pairs whole when the budget forces compaction of large tool outputs", async () => {
    const replies = Array.from({ length: 8 }, (_, index) => toolCallReply(`call_${index}`, "grep", { pattern: `p${index}` }));
    const { client, requests } = mockOpenAI([...replies, textReply("done")]);
    const context = createSimpleContext({ maxTokens: 1_500, tokenizer: "estimate" });
    await context.addMessage({ role: "user", content: "Search everything." });
    for (let step = 0; step < 12; step += 1) {
      const completion = await client.chat.completions.create({
        model: "gpt-test",
        messages: toChatCompletionMessages(await context.getMessagesForRequest()),
      });
      const reply = completion.choices[0]!.message;
      await context.addMessage(fromChatCompletionMessage(reply));
      if (reply.tool_calls === undefined) break;
      for (const call of reply.tool_calls)
        await context.addMessage({ role: "tool", tool_call_id: call.id, content: "match\n".repeat(150) });
    }
    expect(requests).toHaveLength(9);
    const sizes = requests.map((request) => JSON.stringify(request.messages).length);
    // The later requests were compacted: far smaller than the 8 full outputs (over 7 000 characters).
    expect(Math.max(...sizes)).toBeLessThan(8 * 900);
    for (const request of requests) expect(checkToolPairs(asCtxkitMessages(request.messages))).toEqual([]);
    expect(await context.getMessages()).toHaveLength(18);
  });
});

// The request bodies as ctxkit messages again, so core's own pair checker judges what reached the API.
function asCtxkitMessages(messages: Parameters<typeof fromChatCompletionMessage>[0][]) {
  return messages.map((message) => fromChatCompletionMessage(message));
}
