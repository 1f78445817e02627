import { describe, expect, it } from "vitest";
import { detectFormat, FORMAT_NAMES, sampleOf } from "./detect-format.js";
import { fixtureText } from "./read-fixture.js";

const FIXTURES: Record<string, string> = {
  "canonical.jsonl": "jsonl",
  "openai-chat.json": "openai-chat",
  "openai-responses.json": "openai-responses",
  "anthropic.json": "anthropic",
  "ai-sdk.json": "ai-sdk",
  "claude-code.jsonl": "claude-code",
  "codex-rollout.jsonl": "codex",
  "pi-session.jsonl": "pi",
  "gemini-contents.json": "gemini",
  "openhands-output.jsonl": "openhands",
};

describe("detectFormat", () => {
  it.each(Object.entries(FIXTURES))("should recognize %s as %s", (file, format) => {
    expect(detectFormat({ file, text: fixtureText(file) }).name).toBe(format);
  });

  it("should have a fixture for every format", () => {
    expect([...new Set(Object.values(FIXTURES))].sort()).toEqual([...FORMAT_NAMES].sort());
  });

  it("should recognize a one-line Chat messages array, which also parses as one JSON Lines record", () => {
    const text = JSON.stringify([{ role: "user", content: "hi" }]);
    expect(detectFormat({ file: "one.json", text }).name).toBe("openai-chat");
  });

  it("should name the file and the formats to pass when none fits", () => {
    expect(() => detectFormat({ file: "notes.txt", text: "hello\n" })).toThrow(
      /^notes\.txt: neither JSON nor JSON Lines\. Pass --format with one of: /,
    );
    expect(() => detectFormat({ file: "x.json", text: '{"a": 1}' })).toThrow(/x\.json: its format was not recognized/);
  });

  it("should sample a JSON Lines file whose later line is cut as JSON Lines, so its reader names the line", () => {
    const sample = sampleOf({ file: "cut.jsonl", text: '{"role":"user","content":"a"}\n{"role":"user",' });
    expect(sample).toEqual({ records: [{ role: "user", content: "a" }] });
  });
});
