import { describe, expect, it } from "vitest";
import { openaiChat } from "./openai-chat.js";
import { fixtureText, readError } from "./read-fixture.js";

const text = fixtureText("openai-chat.json");

describe("openaiChat", () => {
  it("should read a request's messages through fromChatCompletionMessages, keeping ids and content", () => {
    const { messages, skipped } = openaiChat.read({ file: "chat.json", text });
    expect(messages).toEqual(JSON.parse(text).messages);
    expect(skipped).toEqual({});
  });

  it("should read a bare messages array", () => {
    const array = JSON.stringify(JSON.parse(text).messages, null, 2);
    expect(openaiChat.read({ file: "chat.json", text: array }).messages).toHaveLength(5);
  });

  it("should name the line of an entry the adapter refuses, and what is wrong with it", () => {
    const broken = text.replace('"role": "tool", "tool_call_id": "call_Ab12",', '"role": "tool",');
    const error = readError(openaiChat, "chat.json", broken);
    expect(error).toMatchObject({ code: "CLI_SESSION_READ", file: "chat.json", line: 13 });
    expect((error as Error).message).toMatch(/^chat\.json:13: entry 3, field "tool_call_id"/);
  });

  it("should recognize Chat messages, and not Anthropic's or JSON Lines", () => {
    expect(openaiChat.detect({ document: JSON.parse(text) })).toBe(true);
    expect(openaiChat.detect({ document: { messages: [{ role: "user", content: "hi" }] } })).toBe(true);
    expect(openaiChat.detect({ document: [{ role: "model", parts: [] }] })).toBe(false);
    expect(openaiChat.detect({ records: [{ role: "user", content: "hi" }] })).toBe(false);
  });
});
