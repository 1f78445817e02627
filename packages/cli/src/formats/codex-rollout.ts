// Codex CLI rollout JSONL (~/.codex/sessions/…/rollout-*.jsonl): only its response items form the conversation.
import type { Message, ToolCall } from "@ctxkit/core";
import { acceptRecord, isObject, recordError } from "./accept-record.js";
import { readJsonLines } from "./json-records.js";
import { type SessionReader, SkipCounter } from "./session-reader.js";

const ROLLOUT_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);
const ROLES: Record<string, "system" | "user" | "assistant"> = {
  developer: "system",
  system: "system",
  user: "user",
  assistant: "assistant",
};

/** input_text / output_text parts joined with "\n"; other parts counted as dropped. */
function partsText(content: unknown, skipped: SkipCounter): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const part of content) {
    if (isObject(part) && (part["type"] === "input_text" || part["type"] === "output_text") && typeof part["text"] === "string")
      texts.push(part["text"]);
    else skipped.add(`${isObject(part) ? String(part["type"]) : "non-object"} part`);
  }
  return texts.join("\n");
}

interface Pending {
  content: string | null;
  calls: ToolCall[];
  line: number;
}

export const codexRollout: SessionReader = {
  name: "codex",
  description: "a Codex CLI rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl)",
  detect: ({ records }) =>
    records !== undefined &&
    records.length > 0 &&
    records.every((record) => isObject(record) && ROLLOUT_TYPES.has(String(record["type"])) && "payload" in record),
  read(source) {
    const skipped = new SkipCounter();
    const built: { message: Message; line: number }[] = [];
    let pending: Pending | undefined;
    // One model response: an assistant message and the function calls that directly follow it.
    const flush = (): void => {
      if (pending === undefined) return;
      const { content, calls, line } = pending;
      built.push({ message: { role: "assistant", content, ...(calls.length > 0 ? { tool_calls: calls } : {}) }, line });
      pending = undefined;
    };
    for (const { value, line } of readJsonLines(source)) {
      if (!isObject(value) || !isObject(value["payload"]))
        throw recordError(source.file, line, "expected a rollout line { type, payload }");
      const payload = value["payload"];
      if (value["type"] === "session_meta") {
        const instructions = payload["base_instructions"];
        if (isObject(instructions) && typeof instructions["text"] === "string")
          built.push({ message: { role: "system", content: instructions["text"] }, line });
        else skipped.add("session_meta line");
        continue;
      }
      if (value["type"] !== "response_item") {
        skipped.add(`${String(value["type"])} line`);
        continue;
      }
      const type = payload["type"];
      if (type === "reasoning") {
        // A reasoning item begins a new model response.
        flush();
        skipped.add("reasoning item");
      } else if (type === "message") {
        const role = ROLES[String(payload["role"])];
        if (role === undefined) throw recordError(source.file, line, `a message item with role "${String(payload["role"])}"`);
        flush();
        const content = partsText(payload["content"], skipped);
        if (role === "assistant") pending = { content, calls: [], line };
        else built.push({ message: { role, content }, line });
      } else if (type === "function_call") {
        pending ??= { content: null, calls: [], line };
        pending.calls.push({
          id: String(payload["call_id"]),
          type: "function",
          function: { name: String(payload["name"]), arguments: String(payload["arguments"]) },
        });
      } else if (type === "function_call_output") {
        flush();
        const output = payload["output"];
        if (typeof output !== "string") throw recordError(source.file, line, 'a function_call_output whose "output" is not a string');
        built.push({ message: { role: "tool", tool_call_id: String(payload["call_id"]), content: output }, line });
      } else skipped.add(`${String(type)} item`);
    }
    flush();
    return { messages: built.map(({ message, line }) => acceptRecord(message, source.file, line)), skipped: skipped.skipped };
  },
};
