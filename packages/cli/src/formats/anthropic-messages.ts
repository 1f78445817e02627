// An Anthropic Messages request ({ system?, messages }), read by @ctxkit/anthropic.
import { fromAnthropicMessages } from "@ctxkit/anthropic";
import { isObject, recordError } from "./accept-record.js";
import { convertWithAdapter } from "./adapter-document.js";
import { readJsonDocument } from "./json-records.js";
import type { SessionReader } from "./session-reader.js";

type AnthropicMessages = Parameters<typeof fromAnthropicMessages>[0];
type AnthropicSystem = NonNullable<Parameters<typeof fromAnthropicMessages>[1]>["system"];

const ANTHROPIC_BLOCKS = new Set(["tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use", "document"]);

/** A request, or a bare messages array whose blocks only Anthropic writes. */
function isAnthropic(document: unknown): boolean {
  const messages = Array.isArray(document) ? document : isObject(document) ? document["messages"] : undefined;
  if (!Array.isArray(messages) || messages.length === 0) return false;
  const rolesFit = messages.every((entry) => isObject(entry) && (entry["role"] === "user" || entry["role"] === "assistant"));
  if (!rolesFit) return false;
  if (isObject(document) && "system" in document) return true;
  return messages.some(
    (entry) =>
      isObject(entry) &&
      Array.isArray(entry["content"]) &&
      entry["content"].some((block) => isObject(block) && ANTHROPIC_BLOCKS.has(String(block["type"]))),
  );
}

export const anthropicMessages: SessionReader = {
  name: "anthropic",
  description: "an Anthropic Messages request { system?, messages } (JSON)",
  detect: ({ document }) => isAnthropic(document),
  read(source) {
    const document = readJsonDocument(source);
    const messages = Array.isArray(document) ? document : isObject(document) ? document["messages"] : undefined;
    if (!Array.isArray(messages)) throw recordError(source.file, 1, "expected an object { system?, messages } with a messages array");
    const path = Array.isArray(document) ? "" : "messages";
    const system = isObject(document) && document["system"] !== undefined ? (document["system"] as AnthropicSystem) : undefined;
    const converted = convertWithAdapter(source, path, () =>
      fromAnthropicMessages(messages as AnthropicMessages, system === undefined ? {} : { system }),
    );
    return { messages: converted, skipped: {} };
  },
};
