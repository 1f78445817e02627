// OpenAI Responses input items (a JSON array, or a request's `input`), read by @ctxkit/openai.
import { fromResponseInputItems, type ResponseItem } from "@ctxkit/openai";
import { isObject, recordError } from "./accept-record.js";
import { convertWithAdapter } from "./adapter-document.js";
import { readJsonDocument } from "./json-records.js";
import type { SessionReader } from "./session-reader.js";

const ITEM_TYPES = new Set(["message", "function_call", "function_call_output", "reasoning"]);
const RESPONSES_PARTS = new Set(["input_text", "output_text", "input_image", "input_file", "refusal"]);

function itemsOf(document: unknown): { entries: unknown[]; path: string } | undefined {
  if (Array.isArray(document)) return { entries: document, path: "" };
  if (isObject(document) && Array.isArray(document["input"])) return { entries: document["input"], path: "input" };
  return undefined;
}

/** An item only the Responses API writes: a typed item, or a message whose parts are Responses parts. */
function isResponsesItem(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  if (typeof entry["type"] === "string" && ITEM_TYPES.has(entry["type"])) return entry["type"] !== "message" || "role" in entry;
  const content = entry["content"];
  return Array.isArray(content) && content.some((part) => isObject(part) && RESPONSES_PARTS.has(String(part["type"])));
}

export const openaiResponses: SessionReader = {
  name: "openai-responses",
  description: "OpenAI Responses input items, or a request { model, input } (JSON)",
  detect({ document }) {
    const found = itemsOf(document);
    return found?.entries.slice(0, 20).some(isResponsesItem) === true;
  },
  read(source) {
    const found = itemsOf(readJsonDocument(source));
    if (found === undefined) throw recordError(source.file, 1, "expected a JSON array of input items, or an object with an input array");
    const messages = convertWithAdapter(source, found.path, () => fromResponseInputItems(found.entries as ResponseItem[]));
    return { messages, skipped: {} };
  },
};
