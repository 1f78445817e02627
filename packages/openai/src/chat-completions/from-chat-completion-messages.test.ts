import { parseMessage } from "@ctxkit/core";
import { AdapterInputError } from "@ctxkit/core/kit";
import type { ChatCompletionMessage, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { fromChatCompletionMessage, fromChatCompletionMessages } from "./from-chat-completion-messages.js";
import { toChatCompletionMessages } from "./to-chat-completion-messages.js";

describe("fromChatCompletionMessage", () => {
  it("should take a response message with tool calls, and drop nothing the next request needs", () => {
    const response: ChatCompletionMessage = {
      role: "assistant",
      content: null,
      refusal: null,
      annotations: [],
      tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: '{"path":"."}' } }],
    };
    const message = fromChatCompletionMessage(response);
    expect(message).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: '{"path":"."}' } }],
    });
    expect(parseMessage(message)).toEqual(message);
  });

  it("should keep a refusal as a refusal part", () => {
    const response: ChatCompletionMessage = { role: "assistant", content: null, refusal: "I can't help with that." };
    expect(fromChatCompletionMessage(response)).toEqual({
      role: "assistant",
      content: [{ type: "refusal", refusal: "I can't help with that." }],
    });
  });

  it("should give an assistant param without content an empty text, and keep its name and audio id", () => {
    expect(fromChatCompletionMessage({ role: "assistant", name: "bot", audio: { id: "audio_1" } })).toEqual({
      role: "assistant",
      content: "",
      name: "bot",
      audio: { id: "audio_1" },
    });
  });

  it("should round-trip every role through toChatCompletionMessages", () => {
    const params: ChatCompletionMessageParam[] = [
      { role: "system", content: "s" },
      { role: "developer", content: [{ type: "text", text: "d" }] },
      {
        role: "user",
        content: [
          { type: "text", text: "u" },
          { type: "input_audio", input_audio: { data: "AAA", format: "mp3" } },
        ],
        name: "ann",
      },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "r" },
    ];
    const messages = fromChatCompletionMessages(params).map((message) => parseMessage(message));
    expect(toChatCompletionMessages(messages)).toEqual(params);
  });

  it("should reject a custom tool call and a deprecated function message, naming the message", () => {
    const custom: ChatCompletionMessage = {
      role: "assistant",
      content: null,
      refusal: null,
      tool_calls: [{ id: "c1", type: "custom", custom: { name: "sql", input: "select 1" } }],
    };
    expect(() => fromChatCompletionMessages([{ role: "user", content: "x" }, custom])).toThrow(
      /entry 1, field "tool_calls\.0\.type".*"custom"/,
    );
    expect(() => fromChatCompletionMessage({ role: "function", name: "f", content: "x" })).toThrow(AdapterInputError);
  });
});
