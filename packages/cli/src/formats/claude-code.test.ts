import { describe, expect, it } from "vitest";
import { claudeCode } from "./claude-code.js";
import { fixtureText, readError } from "./read-fixture.js";

const text = fixtureText("claude-code.jsonl");

describe("claudeCode", () => {
  it("should merge a response's lines, put tool results written between them after it, and count what it drops", () => {
    const { messages, skipped } = claudeCode.read({ file: "session.jsonl", text });
    expect(messages).toEqual([
      { role: "user", content: "Why is lib/session_store.ex slow?" },
      {
        role: "assistant",
        content: "Let me read it.",
        tool_calls: [
          {
            id: "toolu_01R",
            type: "function",
            function: { name: "Read", arguments: '{"file_path": "/srv/app/lib/session_store.ex", "limit": 200}' },
          },
          {
            id: "toolu_01G",
            type: "function",
            function: { name: "Grep", arguments: '{"pattern": "fetch_all", "path": "/srv/app/lib — café"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "toolu_01R", content: "def fetch_all(SessionStore) do\n  Repo.all(SessionStore)\nend" },
      { role: "tool", tool_call_id: "toolu_01G", content: "lib/session_store.ex:1\nlib/session_cache.ex:9" },
      { role: "assistant", content: "fetch_all loads every SessionStore row; add a limit." },
    ]);
    expect(skipped).toEqual({
      "file-history-snapshot line": 1,
      "thinking block": 1,
      "progress line": 1,
      "is_error flag": 1,
      "system line": 1,
    });
  });

  it("should name the line of a record it cannot read", () => {
    const broken = text.replace('"content":"Why is lib/session_store.ex slow?"', '"content":42');
    expect(String(readError(claudeCode, "session.jsonl", broken))).toContain("session.jsonl:2: ");
  });

  it("should recognize a Claude Code log, and not the canonical JSONL", () => {
    const records = text
      .trim()
      .split("\n")
      .slice(0, 5)
      .map((line) => JSON.parse(line));
    expect(claudeCode.detect({ records })).toBe(true);
    expect(claudeCode.detect({ records: [{ role: "user", content: "hi" }] })).toBe(false);
  });
});
