// AI SDK ModelMessage[] (JSON), read by @ctxkit/ai-sdk.
import { fromModelMessages } from "@ctxkit/ai-sdk";
import { isObject, recordError } from "./accept-record.js";
import { convertWithAdapter } from "./adapter-document.js";
import { readJsonDocument } from "./json-records.js";
import type { SessionReader } from "./session-reader.js";

type ModelMessages = Parameters<typeof fromModelMessages>[0];

const AI_SDK_PARTS = new Set(["tool-call", "tool-result", "reasoning", "file", "tool-approval-request", "tool-approval-response"]);

export const aiSdkMessages: SessionReader = {
  name: "ai-sdk",
  description: "AI SDK ModelMessage[] (JSON), as generateText's response.messages",
  detect: ({ document }) =>
    Array.isArray(document) &&
    document.some(
      (entry) =>
        isObject(entry) &&
        Array.isArray(entry["content"]) &&
        entry["content"].some((part) => isObject(part) && AI_SDK_PARTS.has(String(part["type"]))),
    ),
  read(source) {
    const document = readJsonDocument(source);
    if (!Array.isArray(document)) throw recordError(source.file, 1, "expected a JSON array of ModelMessage");
    return { messages: convertWithAdapter(source, "", () => fromModelMessages(document as ModelMessages)), skipped: {} };
  },
};
