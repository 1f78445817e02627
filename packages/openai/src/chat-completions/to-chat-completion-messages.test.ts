import { ContextValidationError, deepFreeze, type Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { checkChatCompletionRequest } from "@ctxkit/conformance";
import { toChatCompletionMessages } from "./to-chat-completion-messages.js";

describe("toChatCompletionMessages", () => {
  it("should return the same frozen objects when there is no metadata to strip", () => {
    const view: Message[] = [
      deepFreeze({ role: "system", content: "Be brief." }),
      deepFreeze({
        role: "user",
        content: [
          { type: "text", text: "Look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAA" } },
        ],
      }),
      deepFreeze({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }],
      }),
      deepFreeze({ role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "a.txt" }] }),
      deepFreeze({ role: "assistant", content: [{ type: "refusal", refusal: "No." }] }),
    ];
    const messages = toChatCompletionMessages(view);
    messages.forEach((message, index) => expect(message).toBe(view[index]));
  });

  it("should leave metadata out, and give the same copy on every call so a prefix stays identical", () => {
    const view: Message[] = [deepFreeze({ role: "user", content: "hi", metadata: { pinned: true } })];
    const first = toChatCompletionMessages(view);
    expect(first[0]).toEqual({ role: "user", content: "hi" });
    expect(toChatCompletionMessages(view)[0]).toBe(first[0]);
  });

  describe("parts a role cannot take", () => {
    it.each<[string, Message, string]>([
      [
        "system",
        { role: "system", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] },
        "a system message (only text parts)",
      ],
      [
        "tool",
        {
          role: "tool",
          tool_call_id: "c1",
          content: [
            { type: "text", text: "a" },
            { type: "image_url", image_url: { url: "https://x/y.png" } },
          ],
        },
        "content.1",
      ],
      ["assistant", { role: "assistant", content: [{ type: "document", source: {} }] }, "text and refusal"],
      ["user", { role: "user", content: [{ type: "document", source: {} }] }, '"document" part'],
    ])("should reject a %s message's part with a ContextValidationError that says what is allowed", (_role, message, expected) => {
      expect(() => toChatCompletionMessages([message])).toThrow(ContextValidationError);
      expect(() => toChatCompletionMessages([message])).toThrow(expected);
    });
  });

  describe("what Chat Completions does not take", () => {
    const view: Message[] = [
      { role: "user", content: [{ type: "text", text: "Read it", providerOptions: { openai: {} } } as never] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Let me see.", signature: "sig" },
          { type: "reasoning", id: "rs_1", summary: [] },
        ],
        tool_calls: [
          { id: "functions.read_file:0", type: "function", function: { name: "read_file", arguments: "{}" }, providerOptions: {} } as never,
        ],
      },
      {
        role: "tool",
        tool_call_id: "functions.read_file:0",
        name: "read_file",
        is_error: true,
        content: "no such file",
        aiSdk: {},
      } as Message,
    ];

    it("should drop is_error, name on tool messages, reasoning parts and unknown keys, and pass the strict request rules", () => {
      const messages = toChatCompletionMessages(view);
      expect(messages).toEqual([
        { role: "user", content: [{ type: "text", text: "Read it" }] },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "functions.read_file:0", type: "function", function: { name: "read_file", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "functions.read_file:0", content: "no such file" },
      ]);
      expect(checkChatCompletionRequest(messages)).toEqual([]);
    });

    it("should give the same cleaned objects on every call, so the prefix stays identical", () => {
      const frozen = view.map((message) => deepFreeze(structuredClone(message)));
      const first = toChatCompletionMessages(frozen);
      toChatCompletionMessages(frozen).forEach((message, index) => expect(message).toBe(first[index]));
    });
  });
});
