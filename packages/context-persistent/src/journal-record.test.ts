import { describe, expect, it } from "vitest";
import { decodeRecord, encodeAdd, encodeHeader, encodeState, FORMAT_VERSION } from "./journal-record.js";

describe("journal records", () => {
  describe("encoding", () => {
    it("should write each record on one line, with the format version", () => {
      const line = encodeAdd({ role: "user", content: "line one\nline two\u2028" });
      expect(line).not.toContain("\n");
      expect(JSON.parse(line)).toEqual({ v: FORMAT_VERSION, type: "add", message: { role: "user", content: "line one\nline two\u2028" } });
    });

    it("should round-trip every record type", () => {
      const message = {
        role: "assistant" as const,
        content: null,
        tool_calls: [{ id: "a", type: "function" as const, function: { name: "f", arguments: "{}" } }],
      };
      expect(decodeRecord(encodeAdd(message))).toEqual({ type: "add", message });
      expect(decodeRecord(encodeState({ strategy: "summary", key: "checkpoint", value: { through: 3 } }))).toEqual({
        type: "state",
        strategy: "summary",
        key: "checkpoint",
        value: { through: 3 },
      });
      expect(decodeRecord(encodeState({ strategy: "summary", key: "checkpoint", deleted: true }))).toEqual({
        type: "state",
        strategy: "summary",
        key: "checkpoint",
        deleted: true,
      });
      const header = { sessionId: "s", rewrittenAt: "2025-01-01T00:00:00.000Z", reason: "clear" as const };
      expect(decodeRecord(encodeHeader(header))).toMatchObject({ type: "header", ...header });
    });
  });

  describe("append times", () => {
    it("should carry when a message was appended in its own line, and read a line without one as unknown", () => {
      const message = { role: "user" as const, content: "hi" };
      expect(JSON.parse(encodeAdd(message, 1_700_000_000_000))).toMatchObject({ type: "add", at: 1_700_000_000_000 });
      expect(decodeRecord(encodeAdd(message, 1_700_000_000_000))).toEqual({ type: "add", message, addedAt: 1_700_000_000_000 });
      expect(decodeRecord('{"v":1,"type":"add","message":{"role":"user","content":"hi"}}')).toEqual({ type: "add", message });
    });

    it("should refuse a time that is not whole milliseconds since 1970, naming the field", () => {
      for (const at of ['"yesterday"', "-1", "1.5", "null"])
        expect(() => decodeRecord(`{"v":1,"type":"add","at":${at},"message":{"role":"user","content":"hi"}}`)).toThrow(/"at"/);
    });
  });

  describe("decoding", () => {
    it.each([
      ['{"v":1,"type":"add","message":{"role":"user","content":"h', "not valid JSON"],
      ["[1,2]", "not a JSON object"],
      ['{"type":"add","message":{"role":"user","content":"hi"}}', "unknown format version"],
      ['{"v":2,"type":"add"}', "newer than this package reads"],
      ['{"v":1,"type":"delete"}', 'unknown record type "delete"'],
      ['{"v":1,"type":"add","message":{"role":"robot","content":"hi"}}', "addMessage would refuse (role:"],
      ['{"v":1,"type":"add","message":{"role":"user","content":null}}', "addMessage would refuse (content:"],
      ['{"v":1,"type":"add","message":{"role":"tool","content":"x"}}', "addMessage would refuse (tool_call_id:"],
      [
        '{"v":1,"type":"add","message":{"role":"assistant","content":null,"tool_calls":[{"id":"a"}]}}',
        "addMessage would refuse (tool_calls.0",
      ],
      ['{"v":1,"type":"add","message":{"role":"user","content":[null]}}', "addMessage would refuse (content"],
      [
        '{"v":1,"type":"add","message":{"role":"user","content":"x","metadata":{"pinned":"yes"}}}',
        "addMessage would refuse (metadata.pinned:",
      ],
      ['{"v":1,"type":"state","key":"k","value":1}', "without strategy and key"],
      ['{"v":1,"type":"state","strategy":"s","key":"k"}', "without a value"],
      ['{"v":1,"type":"header","rewrittenAt":"2025-01-01T00:00:00.000Z","reason":"set"}', "header record without its sessionId"],
      ['{"v":1,"type":"header","sessionId":"s","rewrittenAt":"2025-01-01T00:00:00.000Z","reason":"edit"}', 'reason is "edit"'],
    ])("should reject %s, saying why", (line, reason) => {
      expect(() => decodeRecord(line)).toThrow(reason);
    });
  });
});
