// OpenHands V0 event history: one record of an evaluation's output.jsonl (its `history`), or the events alone.
import type { Message, ToolCall } from "@ctxkit/core";
import { acceptRecord, isObject, recordError } from "./accept-record.js";
import { entryLines, readJsonDocument, readJsonLines } from "./json-records.js";
import { type SessionReader, type SessionSource, SkipCounter } from "./session-reader.js";

const isEvent = (value: unknown): boolean => isObject(value) && ("action" in value || "observation" in value);

const isRecord = (value: unknown): boolean => isObject(value) && Array.isArray(value["history"]);

const RECORD_PROBLEM = 'expected an output.jsonl record with a "history" array of events';

/** The history's events, each with the line it is on. */
function eventsOf(source: SessionSource): { event: unknown; line: number }[] {
  const trimmed = source.text.trim();
  const firstLine = trimmed.split("\n", 1)[0] ?? "";
  let isOneLinePerRecord = true;
  try {
    JSON.parse(firstLine);
  } catch {
    isOneLinePerRecord = false;
  }
  if (trimmed.startsWith("[") || !isOneLinePerRecord) {
    // One JSON document over many lines: the events array, or a pretty-printed record.
    const document = readJsonDocument(source);
    const history = Array.isArray(document) ? document : isRecord(document) ? (document as { history: unknown[] }).history : undefined;
    if (history === undefined) throw recordError(source.file, 1, RECORD_PROBLEM);
    const lines = entryLines(source.text);
    const prefix = Array.isArray(document) ? "" : "history.";
    return history.map((event, index) => ({ event, line: lines.get(`${prefix}${index}`) ?? 0 }));
  }
  const records = readJsonLines(source);
  if (records.length === 0 || !isRecord(records[0]!.value)) throw recordError(source.file, records[0]?.line ?? 1, RECORD_PROBLEM);
  if (records.length > 1)
    throw recordError(source.file, records[1]!.line, "the file holds more than one record: put each session's record in its own file");
  const { value, line } = records[0]!;
  return (value as { history: unknown[] }).history.map((event) => ({ event, line }));
}

function assistantFrom(response: Record<string, unknown>): Message | undefined {
  const choice = Array.isArray(response["choices"]) ? response["choices"][0] : undefined;
  const message = isObject(choice) ? choice["message"] : undefined;
  if (!isObject(message)) return undefined;
  const calls: ToolCall[] = (Array.isArray(message["tool_calls"]) ? message["tool_calls"] : []).map((call: unknown) => {
    const { id, function: target } = call as { id: unknown; function: { name: unknown; arguments: unknown } };
    return { id: String(id), type: "function", function: { name: String(target.name), arguments: String(target.arguments) } };
  });
  const content = (message["content"] ?? null) as string | null;
  return calls.length > 0 ? { role: "assistant", content, tool_calls: calls } : { role: "assistant", content };
}

export const openhandsEvents: SessionReader = {
  name: "openhands",
  description: "an OpenHands V0 evaluation record (output.jsonl, one record) or its history of events (JSON)",
  detect: ({ document, records }) => {
    if (Array.isArray(document)) return document.length > 0 && document.every(isEvent);
    if (isRecord(document)) return (document as { history: unknown[] }).history.some(isEvent);
    return (
      records !== undefined && records.length > 0 && isRecord(records[0]) && (records[0] as { history: unknown[] }).history.some(isEvent)
    );
  },
  read(source) {
    const skipped = new SkipCounter();
    const messages: Message[] = [];
    const responses = new Set<string>();
    for (const { event, line } of eventsOf(source)) {
      if (!isObject(event)) throw recordError(source.file, line, "an event of the history is not an object");
      const metadata = isObject(event["tool_call_metadata"]) ? event["tool_call_metadata"] : undefined;
      const args = isObject(event["args"]) ? event["args"] : {};
      const push = (message: Message): void => void messages.push(acceptRecord(message, source.file, line));
      if ("action" in event) {
        const action = event["action"];
        if (metadata !== undefined) {
          const response = isObject(metadata["model_response"]) ? metadata["model_response"] : {};
          const id = String(response["id"]);
          // Actions of one model response (parallel calls) form one message, built from that response.
          if (responses.has(id)) continue;
          responses.add(id);
          const message = assistantFrom(response);
          if (message === undefined) throw recordError(source.file, line, "tool_call_metadata.model_response has no choices[0].message");
          push(message);
        } else if (action === "system") push({ role: "system", content: String(args["content"]) });
        else if (action === "message" && event["source"] === "user") push({ role: "user", content: String(args["content"]) });
        else if (action === "message" && event["source"] === "agent") push({ role: "assistant", content: String(args["content"]) });
        else skipped.add(`${String(action)} action`);
      } else if ("observation" in event) {
        const observation = event["observation"];
        if (metadata !== undefined)
          push({
            role: "tool",
            tool_call_id: String(metadata["tool_call_id"]),
            name: String(metadata["function_name"]),
            content: String(event["content"]),
          } as Message);
        // A function call that failed validation: OpenHands sends the error back as a user message.
        else if (observation === "error") push({ role: "user", content: String(event["content"]) });
        else skipped.add(`${String(observation)} observation`);
      } else skipped.add("non-event entry");
    }
    return { messages, skipped: skipped.skipped };
  },
};
