import { describe, expect, it } from "vitest";
import { piSession } from "./pi-session.js";
import { fixtureText, readError } from "./read-fixture.js";

const text = fixtureText("pi-session.jsonl");

describe("piSession", () => {
  it("should read message and compaction entries, both records of a line that holds two, and count what it drops", () => {
    const { messages, skipped } = piSession.read({ file: "pi.jsonl", text });
    expect(messages).toEqual([
      { role: "user", content: "Check config/queue_limits.json\nand the screenshot." },
      {
        role: "assistant",
        content: "Reading it.",
        tool_calls: [{ id: "toolu_P1", type: "function", function: { name: "read", arguments: '{"path": "config/queue_limits.json"}' } }],
      },
      { role: "tool", tool_call_id: "toolu_P1", name: "read", content: '{"max_jobs": 8}' },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "toolu_P2", type: "function", function: { name: "screenshot", arguments: "{}" } }],
      },
      {
        role: "tool",
        tool_call_id: "toolu_P2",
        name: "screenshot",
        content: [
          { type: "text", text: "Captured." },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
      { role: "user", content: "The user asked about config/queue_limits.json; max_jobs is 8." },
      { role: "assistant", content: "" },
    ]);
    expect(skipped).toEqual({
      "session entry": 1,
      "model_change entry": 1,
      "thinking_level_change entry": 1,
      "thinking block": 2,
      "bashExecution message": 1,
      "isError flag": 1,
    });
  });

  it("should name the line of an entry it cannot read", () => {
    const broken = text.replace('"type":"compaction","id":"e9"', '"type":"compaction","id":"e9","summary":null,"x"');
    expect(String(readError(piSession, "pi.jsonl", broken))).toMatch(/^SessionReadError: pi\.jsonl:9: /);
  });

  it("should recognize a pi session by its header", () => {
    const records = text
      .trim()
      .split("\n")
      .slice(0, 4)
      .map((line) => JSON.parse(line));
    expect(piSession.detect({ records })).toBe(true);
    expect(piSession.detect({ records: records.slice(1) })).toBe(false);
  });
});
