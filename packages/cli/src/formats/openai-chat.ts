// OpenAI Chat Completions `messages` (a JSON array, or a request holding one), read by @ctxkit/openai.
import { fromChatCompletionMessages } from "@ctxkit/openai";
import { isObject, recordError } from "./accept-record.js";
import { convertWithAdapter } from "./adapter-document.js";
import { readJsonDocument } from "./json-records.js";
import type { SessionReader } from "./session-reader.js";

type ChatMessages = Parameters<typeof fromChatCompletionMessages>[0];

const CHAT_ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

/** The messages array of a Chat document: the array itself, or a request's `messages`. */
export function chatEntries(document: unknown): { entries: unknown[]; path: string } | undefined {
  if (Array.isArray(document)) return { entries: document, path: "" };
  if (isObject(document) && Array.isArray(document["messages"])) return { entries: document["messages"], path: "messages" };
  return undefined;
}

export const openaiChat: SessionReader = {
  name: "openai-chat",
  description: "an OpenAI Chat Completions messages array, or a request { model, messages } (JSON)",
  detect({ document }) {
    const found = chatEntries(document);
    if (found === undefined || found.entries.length === 0) return false;
    return found.entries.every((entry) => isObject(entry) && typeof entry["role"] === "string" && CHAT_ROLES.has(entry["role"]));
  },
  read(source) {
    const found = chatEntries(readJsonDocument(source));
    if (found === undefined) throw recordError(source.file, 1, "expected a JSON array of messages, or an object with a messages array");
    const messages = convertWithAdapter(source, found.path, () => fromChatCompletionMessages(found.entries as ChatMessages));
    return { messages, skipped: {} };
  },
};
