// pi coding agent session JSONL (~/.pi/agent/sessions/…/*.jsonl): a session header, then typed entries.
import type { ContentPart, Message, ToolCall } from "@ctxkit/core";
import { acceptRecord, isObject, recordError } from "./accept-record.js";
import { readJsonLines } from "./json-records.js";
import { dumpsLikePython } from "./python-json.js";
import { type SessionReader, SkipCounter } from "./session-reader.js";

/** Text blocks joined with "\n"; with an image among them, a part array with the image as a data URL, verbatim. */
function blocksContent(content: unknown, skipped: SkipCounter): string | ContentPart[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: ContentPart[] = [];
  for (const block of content) {
    if (isObject(block) && block["type"] === "text" && typeof block["text"] === "string") parts.push({ type: "text", text: block["text"] });
    else if (isObject(block) && block["type"] === "image" && typeof block["data"] === "string")
      parts.push({ type: "image_url", image_url: { url: `data:${String(block["mimeType"])};base64,${block["data"]}` } });
    else skipped.add(`${isObject(block) ? String(block["type"]) : "non-object"} block`);
  }
  if (parts.every((part) => part.type === "text")) return parts.map((part) => (part as { text: string }).text).join("\n");
  return parts;
}

function assistantMessage(message: Record<string, unknown>, skipped: SkipCounter): Message {
  let text: string | null = null;
  const calls: ToolCall[] = [];
  for (const block of Array.isArray(message["content"]) ? message["content"] : []) {
    if (isObject(block) && block["type"] === "text" && typeof block["text"] === "string") text = (text ?? "") + block["text"];
    else if (isObject(block) && block["type"] === "toolCall")
      calls.push({
        id: String(block["id"]),
        type: "function",
        function: { name: String(block["name"]), arguments: dumpsLikePython(block["arguments"] ?? {}) },
      });
    else skipped.add(`${isObject(block) ? String(block["type"]) : "non-object"} block`);
  }
  // An aborted, errored or thinking-only response is kept, with empty content.
  if (calls.length === 0) return { role: "assistant", content: text ?? "" };
  return { role: "assistant", content: text, tool_calls: calls };
}

function fromEntry(entry: Record<string, unknown>, skipped: SkipCounter, file: string, line: number): Message | undefined {
  if (entry["type"] === "compaction") {
    if (typeof entry["summary"] !== "string") throw recordError(file, line, 'a compaction entry without a "summary" string');
    // The summary replaces the compacted prefix in what the model saw; the earlier history stays in the log.
    return { role: "user", content: entry["summary"] };
  }
  if (entry["type"] !== "message") {
    skipped.add(`${String(entry["type"])} entry`);
    return undefined;
  }
  const message = entry["message"];
  if (!isObject(message)) throw recordError(file, line, 'a message entry without a "message" object');
  switch (message["role"]) {
    case "user":
      return { role: "user", content: blocksContent(message["content"], skipped) };
    case "assistant":
      return assistantMessage(message, skipped);
    case "toolResult":
      if (message["isError"] === true) skipped.add("isError flag");
      return {
        role: "tool",
        tool_call_id: String(message["toolCallId"]),
        name: String(message["toolName"]),
        content: blocksContent(message["content"], skipped),
      } as Message;
    default:
      // bashExecution: a command the user ran in pi's editor, not a model tool call.
      skipped.add(`${String(message["role"])} message`);
      return undefined;
  }
}

export const piSession: SessionReader = {
  name: "pi",
  description: "a pi coding agent session (~/.pi/agent/sessions/<project>/<session>.jsonl)",
  detect: ({ records }) =>
    records !== undefined &&
    isObject(records[0]) &&
    records[0]["type"] === "session" &&
    records.every((record) => isObject(record) && typeof record["type"] === "string"),
  read(source) {
    const skipped = new SkipCounter();
    const messages: Message[] = [];
    for (const { value, line } of readJsonLines(source)) {
      if (!isObject(value)) throw recordError(source.file, line, "expected a session entry object");
      const message = fromEntry(value, skipped, source.file, line);
      if (message !== undefined) messages.push(acceptRecord(message, source.file, line));
    }
    return { messages, skipped: skipped.skipped };
  },
};
