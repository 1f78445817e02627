import { ContextValidationError, type Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { fromModelMessages } from "./from-model-messages.js";
import { toModelMessages } from "./to-model-messages.js";

describe("toModelMessages", () => {
  describe("system", () => {
    it("should give one plain system message as a string, outside messages", () => {
      const prompt = toModelMessages([
        { role: "system", content: "Be terse.", metadata: { pinned: true } },
        { role: "user", content: "hi" },
      ]);
      expect(prompt).toEqual({ system: "Be terse.", messages: [{ role: "user", content: "hi" }] });
    });

    it("should give developer messages and several system messages as system messages, in order", () => {
      const prompt = toModelMessages([
        { role: "system", content: "one" },
        { role: "developer", content: [{ type: "text", text: "two" }] },
        { role: "user", content: "hi" },
      ]);
      expect(prompt.system).toEqual([
        { role: "system", content: "one" },
        { role: "system", content: "two" },
      ]);
    });

    it("should reject a system part that is not text", () => {
      expect(() =>
        toModelMessages([{ role: "system", content: [{ type: "image_url", image_url: { url: "https://x.test/a.png" } }] }]),
      ).toThrow(ContextValidationError);
    });
  });

  describe("tool results", () => {
    it("should name each result after the call right before it, even when an id repeats across turns (regression)", () => {
      const view: Message[] = [
        { role: "user", content: "a" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: '{"q":"a"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "found a" },
        { role: "user", content: "b" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"b"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "file b" },
      ];
      const { messages } = toModelMessages(view);
      expect(messages[2]).toEqual({
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_1", toolName: "search", output: { type: "text", value: "found a" } }],
      });
      expect(messages[5]).toEqual({
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_1", toolName: "read_file", output: { type: "text", value: "file b" } }],
      });
    });

    it("should parse tool-call arguments, and pass malformed ones on unparsed under ctxkit_unparsed_arguments", () => {
      const { messages } = toModelMessages([
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "a", type: "function", function: { name: "search", arguments: '{"q": 1}' } },
            { id: "b", type: "function", function: { name: "search", arguments: "{not json" } },
          ],
        },
        { role: "tool", tool_call_id: "a", content: "1" },
        { role: "tool", tool_call_id: "b", content: "2" },
      ]);
      expect(messages[0]).toMatchObject({ content: [{ input: { q: 1 } }, { input: { ctxkit_unparsed_arguments: "{not json" } }] });
      expect(messages).toHaveLength(2);
      expect(messages[1]).toMatchObject({ role: "tool", content: [{ toolCallId: "a" }, { toolCallId: "b" }] });
    });

    it("should reject a result that answers no call before it", () => {
      expect(() =>
        toModelMessages([
          { role: "user", content: "x" },
          { role: "tool", tool_call_id: "call_9", content: "orphan" },
        ]),
      ).toThrow(/answers no call/);
    });

    it("should keep is_error on a result given as text parts, as Anthropic's arrive (regression)", () => {
      const history: Message[] = [
        { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "read_file", arguments: "{}" } }] },
        {
          role: "tool",
          tool_call_id: "a",
          content: [
            { type: "text", text: "ENOENT: " },
            { type: "text", text: "no a.txt" },
          ],
          is_error: true,
        },
      ];
      const { messages } = toModelMessages(history);
      expect(messages[1]).toMatchObject({ content: [{ output: { type: "error-text", value: "ENOENT: no a.txt" } }] });
      expect(fromModelMessages(messages)[1]).toMatchObject({ role: "tool", tool_call_id: "a", is_error: true });
    });

    it("should fall back to a text output when a strategy cleared a JSON result", () => {
      const { messages } = toModelMessages([
        { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "search", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "a", content: "[cleared]", aiSdk: { output: { type: "json" } } } as Message,
      ]);
      expect(messages[1]).toMatchObject({ content: [{ output: { type: "text", value: "[cleared]" } }] });
    });
  });

  describe("user content", () => {
    it("should turn image_url parts into image parts and reject parts the AI SDK has no place for", () => {
      const { messages } = toModelMessages([
        { role: "user", content: [{ type: "image_url", image_url: { url: "https://x.test/a.png" } }] },
      ]);
      expect(messages[0]).toEqual({ role: "user", content: [{ type: "image", image: "https://x.test/a.png" }] });
      expect(() =>
        toModelMessages([{ role: "user", content: [{ type: "input_audio", input_audio: { data: "", format: "wav" } }] }]),
      ).toThrow(/input_audio/);
    });
  });

  it("should never send metadata", () => {
    const { messages } = toModelMessages([{ role: "user", content: "hi", metadata: { pinned: true, ctxkit: { source: "summary" } } }]);
    expect(messages[0]).toEqual({ role: "user", content: "hi" });
  });
});
