import { describe, expect, it } from "vitest";
import type { Message } from "../messages/message.js";
import { IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS, countContentTokens, countMessageTokens } from "./count-message-tokens.js";
import type { TokenCounter } from "./token-counter.js";

// One token per character keeps every expected figure readable. A message is counted in one call
// over its texts joined by newlines, so each join costs one "token" here.
const characters: TokenCounter = { name: "characters", count: (text) => text.length };
const joined = (...texts: string[]): number => texts.join("\n").length;

describe("countMessageTokens", () => {
  describe("text content", () => {
    it("should count the text plus the per-message overhead", () => {
      const message: Message = { role: "user", content: "hello" };
      expect(countMessageTokens(message, characters)).toBe(5 + MESSAGE_OVERHEAD_TOKENS);
    });

    it("should count an empty text as the overhead alone", () => {
      expect(countMessageTokens({ role: "system", content: "" }, characters)).toBe(MESSAGE_OVERHEAD_TOKENS);
    });
  });

  describe("tool calls", () => {
    it("should add each call's name and JSON arguments plus an overhead per call", () => {
      const message: Message = {
        role: "assistant",
        content: "ok",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } },
          { id: "call_2", type: "function", function: { name: "ls", arguments: "{}" } },
        ],
      };
      const text = joined("ok", "read", '{"path":"a.ts"}', "ls", "{}");
      expect(countMessageTokens(message, characters)).toBe(3 * MESSAGE_OVERHEAD_TOKENS + text);
    });

    it("should count null content as nothing", () => {
      const message: Message = {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } }],
      };
      expect(countMessageTokens(message, characters)).toBe(2 * MESSAGE_OVERHEAD_TOKENS + joined("ls", "{}"));
    });

    it("should count a tool result's call id", () => {
      const message: Message = { role: "tool", tool_call_id: "call_1", content: "done" };
      expect(countMessageTokens(message, characters)).toBe(MESSAGE_OVERHEAD_TOKENS + joined("done", "call_1"));
    });
  });

  describe("content arrays", () => {
    it("should sum the text parts", () => {
      const message: Message = {
        role: "user",
        content: [
          { type: "text", text: "abc" },
          { type: "text", text: "de" },
        ],
      };
      expect(countMessageTokens(message, characters)).toBe(MESSAGE_OVERHEAD_TOKENS + joined("abc", "de"));
    });

    it("should give an image a flat figure, whatever its URL", () => {
      const short: Message = { role: "user", content: [{ type: "image_url", image_url: { url: "a" } }] };
      const long: Message = {
        role: "user",
        content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${"A".repeat(100_000)}`, detail: "high" } }],
      };
      expect(countMessageTokens(short, characters)).toBe(MESSAGE_OVERHEAD_TOKENS + IMAGE_TOKENS);
      expect(countMessageTokens(long, characters)).toBe(MESSAGE_OVERHEAD_TOKENS + IMAGE_TOKENS);
    });

    it("should count an unknown part as its JSON", () => {
      const part = { type: "input_audio", input_audio: { data: "xyz", format: "wav" } };
      expect(countContentTokens([part], characters)).toBe(JSON.stringify(part).length);
    });
  });

  describe("name", () => {
    it("should add the name", () => {
      const message: Message = { role: "user", name: "alice", content: "hi" };
      expect(countMessageTokens(message, characters)).toBe(MESSAGE_OVERHEAD_TOKENS + joined("hi", "alice"));
    });
  });

  describe("tokenizer calls", () => {
    /** A counter that counts its own calls. */
    function countingCounter(): TokenCounter & { calls: number } {
      const counter = { name: "counting", calls: 0, count: (text: string) => ((counter.calls += 1), text.length) };
      return counter;
    }

    it("should call the counter once per message, however many texts it has", () => {
      const counting = countingCounter();
      const message: Message = {
        role: "assistant",
        name: "bot",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
        tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } }],
      };
      countMessageTokens(message, counting);
      expect(counting.calls).toBe(1);
    });

    it("should count several texts with the counter's countJoined when it has one, to the figure of their join", () => {
      const message: Message = {
        role: "assistant",
        name: "bot",
        content: "a",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } }],
      };
      const texts: (readonly string[])[] = [];
      const withJoined: TokenCounter = {
        ...characters,
        countJoined: (given) => (texts.push(given), characters.count(given.join("\n"))),
      };
      expect(countMessageTokens(message, withJoined)).toBe(countMessageTokens(message, characters));
      expect(texts).toEqual([["a", "bot", "ls", "{}"]]);
      expect(countMessageTokens({ role: "user", content: "one text" }, withJoined)).toBe(MESSAGE_OVERHEAD_TOKENS + 8);
      expect(texts).toHaveLength(1);
    });

    it("should not call the counter for a message with no text", () => {
      const counting = countingCounter();
      countMessageTokens({ role: "user", content: [{ type: "image_url", image_url: { url: "a" } }] }, counting);
      expect(counting.calls).toBe(0);
    });
  });

  describe("metadata", () => {
    it("should not count metadata, which never reaches the model", () => {
      const plain: Message = { role: "user", content: "hi" };
      const pinned: Message = { role: "user", content: "hi", metadata: { pinned: true, note: "x".repeat(500) } };
      expect(countMessageTokens(pinned, characters)).toBe(countMessageTokens(plain, characters));
    });
  });
});
