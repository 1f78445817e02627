// Claude Code session JSONL (~/.claude/projects/…/<session>.jsonl), mapped as ctxkit's transcripts were made from it.
import type { Message, ToolCall } from "@ctxkit/core";
import { acceptRecord, isObject, recordError } from "./accept-record.js";
import { readJsonLines } from "./json-records.js";
import { dumpsLikePython } from "./python-json.js";
import { type SessionReader, SkipCounter } from "./session-reader.js";

interface Built {
  message: Message;
  line: number;
  /** The response an assistant message was built from: later lines of the same response merge into it. */
  responseId?: string;
}

const isConversationLine = (record: unknown): boolean =>
  isObject(record) && (record["type"] === "user" || record["type"] === "assistant") && isObject(record["message"]);

/** A tool_result's content: a string verbatim, text blocks joined with "\n" (anything else counted as dropped). */
function toolResultText(content: unknown, skipped: SkipCounter): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content) {
    if (isObject(block) && block["type"] === "text" && typeof block["text"] === "string") texts.push(block["text"]);
    else skipped.add(`tool_result ${isObject(block) ? String(block["type"]) : "entry"} block`);
  }
  return texts.join("\n");
}

function readUser(content: unknown, line: number, built: Built[], skipped: SkipCounter, file: string): void {
  if (typeof content === "string") {
    built.push({ message: { role: "user", content }, line });
    return;
  }
  if (!Array.isArray(content)) throw recordError(file, line, 'field "message.content" should be a string or a list of blocks');
  for (const block of content) {
    if (!isObject(block)) throw recordError(file, line, 'an entry of "message.content" is not a block');
    if (block["type"] === "tool_result") {
      if (block["is_error"] === true) skipped.add("is_error flag");
      const message = { role: "tool", tool_call_id: block["tool_use_id"], content: toolResultText(block["content"], skipped) };
      built.push({ message: message as Message, line });
    } else if (block["type"] === "text" && typeof block["text"] === "string") {
      built.push({ message: { role: "user", content: block["text"] }, line });
    } else skipped.add(`user ${String(block["type"])} block`);
  }
}

function readAssistant(record: Record<string, unknown>, line: number, built: Built[], skipped: SkipCounter, file: string): void {
  const message = record["message"] as Record<string, unknown>;
  const content = message["content"];
  const blocks: unknown[] = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  if (!Array.isArray(content) && typeof content !== "string")
    throw recordError(file, line, 'field "message.content" should be a string or a list of blocks');
  let text: string | null = null;
  const calls: ToolCall[] = [];
  for (const block of blocks) {
    if (!isObject(block)) throw recordError(file, line, 'an entry of "message.content" is not a block');
    if (block["type"] === "text" && typeof block["text"] === "string") text = (text ?? "") + block["text"];
    else if (block["type"] === "tool_use")
      calls.push({
        id: String(block["id"]),
        type: "function",
        function: { name: String(block["name"]), arguments: dumpsLikePython(block["input"] ?? {}) },
      });
    else skipped.add(`${String(block["type"])} block`);
  }
  const responseId = typeof message["id"] === "string" ? message["id"] : undefined;
  // Claude Code writes one line per block of a response: a later line of the same response joins the message,
  // and tool results written between its lines stay after it, in file order.
  const index = built.findLastIndex((entry) => entry.message.role !== "tool");
  const previous = index === -1 ? undefined : built[index];
  if (responseId !== undefined && previous?.responseId === responseId && previous.message.role === "assistant") {
    const merged = previous.message;
    const mergedText = text === null ? merged.content : ((merged.content as string | null) ?? "") + text;
    const mergedCalls = [...(merged.tool_calls ?? []), ...calls];
    previous.message = { role: "assistant", content: mergedText, ...(mergedCalls.length > 0 ? { tool_calls: mergedCalls } : {}) };
    return;
  }
  built.push({
    message: { role: "assistant", content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
    line,
    ...(responseId === undefined ? {} : { responseId }),
  });
}

export const claudeCode: SessionReader = {
  name: "claude-code",
  description: "a Claude Code session log (~/.claude/projects/<project>/<session>.jsonl)",
  detect: ({ records }) => records?.some(isConversationLine) === true && records.every((record) => isObject(record) && "type" in record),
  read(source) {
    const skipped = new SkipCounter();
    const built: Built[] = [];
    for (const { value, line } of readJsonLines(source)) {
      if (!isConversationLine(value)) {
        skipped.add(`${isObject(value) ? String(value["type"]) : "non-object"} line`);
        continue;
      }
      const record = value as Record<string, unknown>;
      if (record["type"] === "user") readUser((record["message"] as Record<string, unknown>)["content"], line, built, skipped, source.file);
      else readAssistant(record, line, built, skipped, source.file);
    }
    return { messages: built.map(({ message, line }) => acceptRecord(message, source.file, line)), skipped: skipped.skipped };
  },
};
