import { parseMessages } from "@ctxkit/core";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { fromAnthropicMessages } from "./from-anthropic-messages.js";
import { toAnthropicMessages } from "./to-anthropic-messages.js";

const conversation: MessageParam[] = [
  {
    role: "user",
    content: [
      { type: "text", text: "Read a" },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/" } },
    ],
  },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "I should read it.", signature: "sig-1" },
      { type: "text", text: "Reading." },
      { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a" } },
    ],
  },
  {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "alpha" }], is_error: false },
      { type: "text", text: "Thanks", cache_control: { type: "ephemeral" } },
    ],
  },
  { role: "assistant", content: "It says alpha." },
];

describe("fromAnthropicMessages", () => {
  it("should give messages addMessage accepts, with tool_use as tool_calls and tool_result as tool messages before the user's text", () => {
    const messages = parseMessages(
      fromAnthropicMessages(conversation, { system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }] }),
    );
    expect(messages).toEqual([
      { role: "system", content: [{ type: "text", text: "Be brief." }] },
      {
        role: "user",
        content: [
          { type: "text", text: "Read a" },
          { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/" } },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "I should read it.", signature: "sig-1" },
          { type: "text", text: "Reading." },
        ],
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }],
      },
      { role: "tool", tool_call_id: "toolu_1", content: [{ type: "text", text: "alpha" }] },
      { role: "user", content: [{ type: "text", text: "Thanks" }] },
      { role: "assistant", content: "It says alpha." },
    ]);
  });

  it("should round-trip through toAnthropicMessages, thinking signature included", () => {
    const request = toAnthropicMessages(fromAnthropicMessages(conversation), { cache: false });
    expect(request.messages[1]).toEqual(conversation[1]);
    expect(request.messages[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "alpha" }] },
      { type: "text", text: "Thanks" },
    ]);
  });

  it("should take a response Message as the SDK returns it", () => {
    const [message] = fromAnthropicMessages([
      {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [{ type: "tool_use", id: "toolu_2", name: "ls", input: {}, caller: { type: "direct" } }],
        container: null,
        diagnostics: null,
        stop_details: null,
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: {
          input_tokens: 1,
          output_tokens: 1,
          cache_creation: null,
          cache_creation_input_tokens: null,
          cache_read_input_tokens: null,
          inference_geo: null,
          output_tokens_details: null,
          server_tool_use: null,
          service_tier: null,
          speed: null,
        },
      },
    ]);
    expect(message).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "toolu_2", type: "function", function: { name: "ls", arguments: "{}" } }],
    });
  });
});
