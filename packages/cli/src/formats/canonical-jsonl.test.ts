import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalJsonl } from "./canonical-jsonl.js";
import { SessionReadError } from "./session-read-error.js";

const fixture = new URL("./__fixtures__/canonical.jsonl", import.meta.url);
const text = readFileSync(fixture, "utf8");

describe("canonicalJsonl", () => {
  it("should read one message per line, content and ids exactly as recorded", () => {
    const { messages, skipped } = canonicalJsonl.read({ file: "canonical.jsonl", text });
    expect(messages).toEqual(
      text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    );
    expect(skipped).toEqual({});
  });

  it("should name the file and line of a line that is not JSON, and of one that is not a message", () => {
    const broken = `${text.trim()}\n{"role": "user", "content": "cut\n`;
    expect(() => canonicalJsonl.read({ file: "s.jsonl", text: broken })).toThrow(/^s\.jsonl:6: not valid JSON/);
    const notMessage = `${text.trim()}\n{"role": "tool", "content": "no id"}\n`;
    const error = (() => {
      try {
        canonicalJsonl.read({ file: "s.jsonl", text: notMessage });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SessionReadError);
    expect(error).toMatchObject({ code: "CLI_SESSION_READ", file: "s.jsonl", line: 6 });
    expect((error as Error).message).toContain("tool_call_id");
  });

  it("should recognize its records and not a log of another shape", () => {
    expect(canonicalJsonl.detect({ records: [{ role: "user", content: "hi" }] })).toBe(true);
    expect(canonicalJsonl.detect({ records: [{ type: "user", message: { role: "user", content: "hi" } }] })).toBe(false);
    expect(canonicalJsonl.detect({ document: [{ role: "user", content: "hi" }] })).toBe(false);
  });
});
