import { describe, expect, it } from "vitest";
import { ContextError } from "../errors.js";
import { rejectionOf } from "../../test/rejection-of.js";
import { parseMessage, parseMessages } from "./parse-message.js";

describe("parseMessage", () => {
  describe("valid messages", () => {
    it("should accept every role in the wire format", () => {
      const messages = [
        { role: "system", content: "You are terse." },
        { role: "developer", content: "Prefer tools." },
        {
          role: "user",
          content: [
            { type: "text", text: "hi" },
            { type: "image_url", image_url: { url: "data:," } },
          ],
        },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "a.txt" },
      ];
      expect(parseMessages(messages)).toEqual(messages);
    });

    it("should keep unknown content parts and unknown keys as they are", () => {
      const input = {
        role: "user",
        content: [{ type: "input_audio", input_audio: { data: "AAA", format: "wav" } }],
        reasoning_content: "kept",
      };
      expect(parseMessage(input)).toEqual(input);
    });
  });

  describe("immutability", () => {
    it("should return a deep-frozen copy and leave the caller's object untouched", () => {
      const input = { role: "user" as const, content: [{ type: "text" as const, text: "hi" }], metadata: { tags: ["a"] } };
      const stored = parseMessage(input);
      expect(stored).not.toBe(input);
      expect(Object.isFrozen(stored)).toBe(true);
      expect(Object.isFrozen((stored.metadata as { tags: string[] }).tags)).toBe(true);
      expect(Object.isFrozen(input)).toBe(false);
      input.metadata.tags.push("b");
      expect(stored.metadata).toEqual({ tags: ["a"] });
    });
  });

  describe("invalid messages", () => {
    it("should name the field and the reason for a missing tool_call_id", () => {
      const error = rejectionOf({ role: "tool", content: "x" });
      expect(error).toBeInstanceOf(ContextError);
      expect(error.code).toBe("CONTEXT_VALIDATION");
      expect(error.issues.map((issue) => issue.path)).toContain("tool_call_id");
    });

    it("should reject an unknown role", () => {
      expect(rejectionOf({ role: "robot", content: "x" }).issues[0]?.path).toBe("role");
    });

    it("should reject null content without tool calls", () => {
      expect(rejectionOf({ role: "assistant", content: null }).message).toContain("content");
    });

    it("should reject a tool call id repeated within one message", () => {
      const call = { id: "same", type: "function", function: { name: "f", arguments: "{}" } };
      const error = rejectionOf({ role: "assistant", content: null, tool_calls: [call, call] });
      expect(error.issues[0]?.path).toBe("tool_calls.1.id");
    });

    it("should reject tool call arguments that are not a string", () => {
      const error = rejectionOf({
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: { a: 1 } } }],
      });
      expect(error.issues[0]?.path).toBe("tool_calls.0.function.arguments");
    });

    it("should reject values that are not plain data", () => {
      expect(rejectionOf({ role: "user", content: "x", metadata: { callback: () => 1 } }).message).toContain("plain data");
    });

    it("should reject a content part nested 2,500 deep, which no request could count (regression)", () => {
      let data: unknown = "x";
      for (let level = 0; level < 2_500; level += 1) data = [data];
      const error = rejectionOf({ role: "user", content: [{ type: "custom", data }] });
      expect(error.issues[0]?.message).toContain("deeper than");
    });

    it("should reject circular metadata with a ContextValidationError, not a RangeError (regression)", () => {
      const metadata: Record<string, unknown> = {};
      metadata["self"] = metadata;
      const issue = rejectionOf({ role: "user", content: "x", metadata }).issues[0];
      expect(issue?.path).toMatch(/^metadata\.self/);
      expect(issue?.message).toContain("circular");
    });

    it("should reject what JSON would change, so every store gives back what it was given (regression)", () => {
      for (const value of [Number.NaN, new Date(0), new Map(), 10n]) {
        const error = rejectionOf({ role: "user", content: "x", metadata: { value } });
        expect(error.issues[0]?.path).toBe("metadata.value");
      }
    });

    it("should name the index of the bad message in a history", () => {
      expect(() => parseMessages([{ role: "user", content: "ok" }, { role: "user" }])).toThrow(/index 1/);
    });
  });
});

describe("parseMessage content errors (regression: say what content may be)", () => {
  it("should say what content may be when it matches no allowed shape", () => {
    expect(() => parseMessage({ role: "user", content: 5 })).toThrow(
      /content: expected a string, an array of content parts .*or null on an assistant message with tool_calls/,
    );
  });

  it("should say what content may be when a part has no type", () => {
    expect(() => parseMessage({ role: "user", content: [{ text: "no type" }] })).toThrow(
      /content: expected .*another part with a string "type"/,
    );
  });
});
