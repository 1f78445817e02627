import { describe, expect, it } from "vitest";
import type { Message } from "../messages/message.js";
import { stripReasoning } from "./strip-reasoning.js";

const thinking = { type: "thinking", thinking: "Let me see.", signature: "sig-1" };
const reasoning = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "opaque" };

describe("stripReasoning", () => {
  it("should drop every reasoning part whole, and keep the same object for a message with none", () => {
    const user: Message = { role: "user", content: "hi" };
    const messages: Message[] = [
      user,
      { role: "assistant", content: [thinking, { type: "text", text: "Hello." }] },
      { role: "assistant", content: [reasoning], tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "assistant", content: [{ type: "redacted_thinking", data: "x" }] },
    ];
    const stripped = stripReasoning(messages);
    expect(stripped[0]).toBe(user);
    expect(stripped[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Hello." }] });
    expect(stripped[2]).toMatchObject({ content: null });
    expect(stripped[3]).toEqual({ role: "assistant", content: "" });
  });

  it("should keep the parts the receiving provider produced, byte-identical", () => {
    const message: Message = { role: "assistant", content: [thinking, reasoning] };
    const [kept] = stripReasoning([message], { keep: (part) => part.type === "thinking" });
    expect(kept).toEqual({ role: "assistant", content: [thinking] });
    expect((kept!.content as unknown[])[0]).toBe(thinking);
  });

  it("should drop Gemini's thoughts and the signatures kept beside its parts", () => {
    const message: Message = {
      role: "assistant",
      content: [
        { type: "gemini_thought", part: { text: "Hmm.", thought: true } },
        { type: "gemini_thought_signature", thoughtSignature: "c2ln" },
        { type: "text", text: "Hello." },
      ],
    };
    expect(stripReasoning([message])).toEqual([{ role: "assistant", content: [{ type: "text", text: "Hello." }] }]);
  });
});
