import { describe, expect, it } from "vitest";
import { geminiContents } from "./gemini-contents.js";
import { fixtureText, readError } from "./read-fixture.js";

const text = fixtureText("gemini-contents.json");

describe("geminiContents", () => {
  it("should read model turns as assistant messages and function responses as tool messages, dropping thoughts", () => {
    const { messages, skipped } = geminiContents.read({ file: "history.json", text });
    expect(messages).toEqual([
      { role: "user", content: "Find where MAX_RETRY_DELAY is set." },
      {
        role: "assistant",
        content: "I will search for it.",
        tool_calls: [
          {
            id: "search-1",
            type: "function",
            function: { name: "search_file_content", arguments: '{"pattern": "MAX_RETRY_DELAY", "path": "src"}' },
          },
        ],
      },
      {
        role: "tool",
        tool_call_id: "search-1",
        name: "search_file_content",
        content: "src/retry_policy.ts:3: export const MAX_RETRY_DELAY = 30_000;",
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "read-2", type: "function", function: { name: "read_file", arguments: '{"absolute_path": "/srv/app/src/missing.ts"}' } },
        ],
      },
      { role: "tool", tool_call_id: "read-2", name: "read_file", content: "File not found: /srv/app/src/missing.ts" },
      { role: "assistant", content: "" },
      { role: "assistant", content: "MAX_RETRY_DELAY is set in src/retry_policy.ts." },
    ]);
    expect(skipped).toEqual({ "thought part": 2, "thoughtSignature field": 1, "error key": 1 });
  });

  // (regression) Calls the Gemini API sent without an id were read as id "undefined", and two of them were refused as one id twice.
  it("should give function calls without ids the stable ids of @ctxkit/google, their responses the same", () => {
    const history = [
      { role: "user", parts: [{ text: "Read a and b." }] },
      {
        role: "model",
        parts: [{ functionCall: { name: "read_file", args: { path: "a" } } }, { functionCall: { name: "read_file", args: { path: "b" } } }],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "read_file", response: { output: "A" } } },
          { functionResponse: { name: "read_file", response: { output: "B" } } },
        ],
      },
    ];
    const { messages } = geminiContents.read({ file: "history.json", text: JSON.stringify(history, null, 2) });
    expect(messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "gemini-call-0-read_file", type: "function", function: { name: "read_file", arguments: '{"path": "a"}' } },
          { id: "gemini-call-1-read_file", type: "function", function: { name: "read_file", arguments: '{"path": "b"}' } },
        ],
      },
      { role: "tool", tool_call_id: "gemini-call-0-read_file", name: "read_file", content: "A" },
      { role: "tool", tool_call_id: "gemini-call-1-read_file", name: "read_file", content: "B" },
    ]);
  });

  it("should name the line of a content that is not a turn", () => {
    const broken = text.replace('{ "role": "model", "parts": [{ "text": "Only', '{ "role": "tool", "parts": [{ "text": "Only');
    expect(String(readError(geminiContents, "history.json", broken))).toContain("history.json:24: content 5");
  });

  it("should recognize contents, and not Chat messages", () => {
    expect(geminiContents.detect({ document: JSON.parse(text) })).toBe(true);
    expect(geminiContents.detect({ document: { contents: JSON.parse(text) } })).toBe(true);
    expect(geminiContents.detect({ document: [{ role: "user", content: "hi" }] })).toBe(false);
  });
});
