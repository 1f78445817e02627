// The canonical JSONL: one ctxkit message (OpenAI Chat shape) per line, as the shared transcripts are written.
import { acceptRecord, isObject } from "./accept-record.js";
import { readJsonLines } from "./json-records.js";
import type { SessionReader } from "./session-reader.js";

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

export const canonicalJsonl: SessionReader = {
  name: "jsonl",
  description: "one message per line ({ role, content, tool_calls?, tool_call_id? }), as ctxkit's transcripts",
  detect: ({ records }) =>
    records !== undefined &&
    records.length > 0 &&
    records.every((record) => isObject(record) && typeof record["role"] === "string" && ROLES.has(record["role"]) && "content" in record),
  read(source) {
    const messages = readJsonLines(source).map(({ value, line }) => acceptRecord(value, source.file, line));
    return { messages, skipped: {} };
  },
};
