import { describe, expect, it } from "vitest";
import { rejectionOf } from "../../test/rejection-of.js";
import { parseMessage } from "./parse-message.js";

describe("messageSchema", () => {
  describe("foreign tool parts (regression)", () => {
    it.each([
      ["tool-call", { type: "tool-call", toolCallId: "c1", toolName: "ls", input: {} }, "fromModelMessages", "@ctxkit/ai-sdk"],
      [
        "tool-result",
        { type: "tool-result", toolCallId: "c1", toolName: "ls", output: { type: "text", value: "a" } },
        "fromModelMessages",
        "@ctxkit/ai-sdk",
      ],
      ["tool_use", { type: "tool_use", id: "toolu_1", name: "ls", input: {} }, "fromAnthropicMessages", "@ctxkit/anthropic"],
      ["tool_result", { type: "tool_result", tool_use_id: "toolu_1", content: "a" }, "fromAnthropicMessages", "@ctxkit/anthropic"],
    ])("should reject a %s part and name the adapter that converts it", (_type, part, adapter, packageName) => {
      const role = part.type.includes("result") ? "user" : "assistant";
      const error = rejectionOf({ role, content: [{ type: "text", text: "before" }, part] });
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]!.path).toBe("content.1.type");
      expect(error.message).toContain(adapter);
      expect(error.message).toContain(packageName);
    });

    it("should reject a foreign tool part in a tool message too", () => {
      const error = rejectionOf({ role: "tool", tool_call_id: "c1", content: [{ type: "tool_result", tool_use_id: "c1", content: "a" }] });
      expect(error.message).toContain("fromAnthropicMessages");
    });

    it("should still keep other unknown parts as given", () => {
      const input = { role: "user", content: [{ type: "document", source: { type: "text", data: "x" } }] };
      expect(parseMessage(input)).toEqual(input);
    });
  });

  describe("OpenAI parts", () => {
    it("should accept input_audio, file and refusal parts", () => {
      const user = {
        role: "user",
        content: [
          { type: "input_audio", input_audio: { data: "AAA", format: "mp3" } },
          { type: "file", file: { file_id: "file-1" } },
        ],
      };
      const assistant = { role: "assistant", content: [{ type: "refusal", refusal: "no" }] };
      expect(parseMessage(user)).toEqual(user);
      expect(parseMessage(assistant)).toEqual(assistant);
    });
  });
});
