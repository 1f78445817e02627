import { ContextValidationError, type Message } from "@ctxkit/core";
import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, expectTypeOf, it } from "vitest";
import { checkAnthropicRequest } from "@ctxkit/conformance";
import { fromAnthropicMessages } from "./from-anthropic-messages.js";
import { DEFAULT_OPENING_USER_TEXT, toAnthropicMessages } from "./to-anthropic-messages.js";

const call = (id: string, name = "read") => ({ id, type: "function" as const, function: { name, arguments: `{"path":"${id}"}` } });

const history: Message[] = [
  { role: "system", content: "You read files.", metadata: { pinned: true } },
  { role: "developer", content: "Be brief." },
  {
    role: "user",
    content: [
      { type: "text", text: "Compare these" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
      { type: "image_url", image_url: { url: "https://example.com/b.png" } },
    ],
  },
  { role: "assistant", content: "Reading both.", tool_calls: [call("a"), call("b")] },
  { role: "tool", tool_call_id: "a", content: "alpha" },
  { role: "tool", tool_call_id: "b", content: [{ type: "text", text: "beta" }] },
  { role: "user", content: "And now?" },
  { role: "assistant", content: "Same." },
];

describe("toAnthropicMessages", () => {
  it("should split the system out, merge the results into one user message right after the calls, and convert images", () => {
    const request = toAnthropicMessages(history, { cache: false });
    expect(request.system).toEqual([
      { type: "text", text: "You read files." },
      { type: "text", text: "Be brief." },
    ]);
    expect(request.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Compare these" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
          { type: "image", source: { type: "url", url: "https://example.com/b.png" } },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading both." },
          { type: "tool_use", id: "a", name: "read", input: { path: "a" } },
          { type: "tool_use", id: "b", name: "read", input: { path: "b" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "a", content: "alpha" },
          { type: "tool_result", tool_use_id: "b", content: [{ type: "text", text: "beta" }] },
          { type: "text", text: "And now?" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Same." }] },
    ]);
    expect(checkAnthropicRequest(request)).toEqual([]);
  });

  it("should type the request as the SDK's create params take it", () => {
    const request = toAnthropicMessages(history);
    const params: MessageCreateParamsNonStreaming = { model: "claude-test", max_tokens: 1024, ...request };
    expectTypeOf(params.messages).toExtend<MessageCreateParamsNonStreaming["messages"]>();
  });

  it("should leave out an empty assistant turn, keeping roles alternating", () => {
    const request = toAnthropicMessages(
      [
        { role: "user", content: "a" },
        { role: "assistant", content: "" },
        { role: "user", content: "b" },
      ],
      { cache: false },
    );
    expect(request.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
    ]);
    expect(request).not.toHaveProperty("system");
  });

  it("should open with a user message when the view opens with the assistant (after a compaction)", () => {
    const view: Message[] = [
      { role: "system", content: "s" },
      { role: "assistant", content: null, tool_calls: [call("a")] },
      { role: "tool", tool_call_id: "a", content: "alpha" },
      { role: "user", content: "next" },
    ];
    const request = toAnthropicMessages(view, { cache: false });
    expect(request.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: DEFAULT_OPENING_USER_TEXT }] });
    expect(checkAnthropicRequest(request)).toEqual([]);
    expect(toAnthropicMessages(view, { cache: false, openingUserText: "Earlier: setup." }).messages[0]!.content).toEqual([
      { type: "text", text: "Earlier: setup." },
    ]);
  });

  it("should keep an error flag on a tool result", () => {
    const failed = { role: "tool" as const, tool_call_id: "a", content: "ENOENT", is_error: true };
    const request = toAnthropicMessages(
      [{ role: "user", content: "go" }, { role: "assistant", content: null, tool_calls: [call("a")] }, failed],
      { cache: false },
    );
    expect(request.messages[2]!.content).toEqual([{ type: "tool_result", tool_use_id: "a", content: "ENOENT", is_error: true }]);
  });

  describe("what Anthropic cannot take", () => {
    it.each<[string, Message[], RegExp]>([
      [
        "an image in the system prompt",
        [{ role: "system", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] }],
        /system prompt/,
      ],
      ["audio", [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "A", format: "wav" } }] }], /"input_audio"/],
      [
        "a non-image data URL",
        [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:text/plain;base64,AAA" } }] }],
        /"image_url"/,
      ],
    ])("should reject %s with a ContextValidationError", (_name, view, message) => {
      expect(() => toAnthropicMessages(view)).toThrow(ContextValidationError);
      expect(() => toAnthropicMessages(view)).toThrow(message);
    });
  });

  it("should send arguments that are no JSON object unparsed, and read them back unchanged", () => {
    const view: Message[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "[1" } }] },
      { role: "tool", tool_call_id: "a", content: "bad arguments" },
    ];
    const request = toAnthropicMessages(view, { cache: false });
    expect(request.messages[1]!.content).toEqual([{ type: "tool_use", id: "a", name: "f", input: { ctxkit_unparsed_arguments: "[1" } }]);
    expect(fromAnthropicMessages(request.messages)[1]).toEqual(view[1]);
  });
});
