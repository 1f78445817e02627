// Gemini CLI API history: a JSON array of Gemini `contents` (role user|model, parts), or an object holding one.
import type { Message, ToolCall } from "@ctxkit/core";
import { acceptRecord, isObject, recordError } from "./accept-record.js";
import { entryLines, readJsonDocument } from "./json-records.js";
import { dumpsLikePython } from "./python-json.js";
import { type SessionReader, SkipCounter } from "./session-reader.js";

function contentsOf(document: unknown): { entries: unknown[]; path: string } | undefined {
  if (Array.isArray(document)) return { entries: document, path: "" };
  if (isObject(document) && Array.isArray(document["contents"])) return { entries: document["contents"], path: "contents" };
  return undefined;
}

const isGeminiTurn = (entry: unknown): boolean =>
  isObject(entry) && (entry["role"] === "user" || entry["role"] === "model") && Array.isArray(entry["parts"]);

function modelTurn(parts: readonly unknown[], skipped: SkipCounter): Message {
  let text: string | null = null;
  const calls: ToolCall[] = [];
  for (const part of parts) {
    if (!isObject(part)) continue;
    if ("thoughtSignature" in part) skipped.add("thoughtSignature field");
    if (part["thought"] === true) skipped.add("thought part");
    else if (typeof part["text"] === "string") text = (text ?? "") + part["text"];
    else if (isObject(part["functionCall"])) {
      const call = part["functionCall"];
      calls.push({
        id: String(call["id"]),
        type: "function",
        function: { name: String(call["name"]), arguments: dumpsLikePython(call["args"] ?? {}) },
      });
    } else skipped.add(`${Object.keys(part).join("+")} part`);
  }
  if (calls.length > 0) return { role: "assistant", content: text, tool_calls: calls };
  // A turn of thoughts alone was still a model call: it is kept, with empty content.
  return { role: "assistant", content: text ?? "" };
}

/** A function response's output, or its error with the key dropped; any other shape as JSON. */
function responseContent(response: unknown, skipped: SkipCounter): string {
  if (isObject(response)) {
    const keys = Object.keys(response);
    if (keys.length === 1 && typeof response["output"] === "string") return response["output"];
    if (keys.length === 1 && typeof response["error"] === "string") {
      skipped.add("error key");
      return response["error"];
    }
  }
  return dumpsLikePython(response);
}

function userTurn(parts: readonly unknown[], skipped: SkipCounter): Message[] {
  const messages: Message[] = [];
  let text: string | undefined;
  for (const part of parts) {
    if (!isObject(part)) continue;
    if (isObject(part["functionResponse"])) {
      const response = part["functionResponse"];
      messages.push({
        role: "tool",
        tool_call_id: String(response["id"]),
        name: String(response["name"]),
        content: responseContent(response["response"], skipped),
      } as Message);
    } else if (typeof part["text"] === "string") text = (text ?? "") + part["text"];
    else skipped.add(`${Object.keys(part).join("+")} part`);
  }
  // Tool results first: they answer the previous model turn's calls.
  if (text !== undefined) messages.push({ role: "user", content: text });
  return messages;
}

export const geminiContents: SessionReader = {
  name: "gemini",
  description: "a Gemini CLI API history: the contents array ({ role: user|model, parts }) (JSON)",
  detect: ({ document }) => {
    const found = contentsOf(document);
    return found !== undefined && found.entries.length > 0 && found.entries.every(isGeminiTurn);
  },
  read(source) {
    const found = contentsOf(readJsonDocument(source));
    if (found === undefined) throw recordError(source.file, 1, "expected a JSON array of contents, or an object with a contents array");
    const skipped = new SkipCounter();
    let lines: Map<string, number> | undefined;
    const lineOf = (index: number): number => {
      lines ??= entryLines(source.text);
      return lines.get(found.path === "" ? String(index) : `${found.path}.${index}`) ?? 0;
    };
    const messages = found.entries.flatMap((entry, index) => {
      if (!isGeminiTurn(entry))
        throw recordError(source.file, lineOf(index), `content ${index} is not { role: "user" | "model", parts: [...] }`);
      const { role, parts } = entry as { role: string; parts: unknown[] };
      const converted = role === "model" ? [modelTurn(parts, skipped)] : userTurn(parts, skipped);
      return converted.map((message) => acceptRecord(message, source.file, lineOf(index)));
    });
    return { messages, skipped: skipped.skipped };
  },
};
