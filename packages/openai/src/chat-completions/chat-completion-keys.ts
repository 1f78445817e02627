// What a Chat Completions request takes, key by key: anything else is left out of what is sent.
import type { ContentPart, Message, ToolCall } from "@ctxkit/core";
import { isReasoningPart } from "@ctxkit/core/kit";

/**
 * The keys that pass, per role: `role`, `content` and `name` (not on tool messages); `tool_calls`, `refusal`
 * and `audio` on assistant messages; `tool_call_id` on tool messages. `metadata`, `is_error` and any other
 * key (an adapter's hints, say) stay in ctxkit.
 */
export const CHAT_COMPLETION_MESSAGE_KEYS: Readonly<Record<Message["role"], readonly string[]>> = {
  system: ["role", "content", "name"],
  developer: ["role", "content", "name"],
  user: ["role", "content", "name"],
  assistant: ["role", "content", "name", "tool_calls", "refusal", "audio"],
  tool: ["role", "content", "tool_call_id"],
};

const PART_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ["type", "text"],
  image_url: ["type", "image_url"],
  input_audio: ["type", "input_audio"],
  file: ["type", "file"],
  refusal: ["type", "refusal"],
};
const NESTED_KEYS: Readonly<Record<string, readonly string[]>> = {
  image_url: ["url", "detail"],
  input_audio: ["data", "format"],
  file: ["file_data", "file_id", "filename"],
};

function pick<T extends object>(value: T, keys: readonly string[]): T {
  return Object.fromEntries(Object.entries(value).filter(([key]) => keys.includes(key))) as T;
}

function hasOnly(value: object, keys: readonly string[]): boolean {
  return Object.keys(value).every((key) => keys.includes(key));
}

function isCleanPart(part: ContentPart): boolean {
  const keys = PART_KEYS[part.type];
  if (keys === undefined) return !isReasoningPart(part);
  const nested = NESTED_KEYS[part.type];
  const inner = (part as Record<string, unknown>)[part.type];
  return hasOnly(part, keys) && (nested === undefined || typeof inner !== "object" || inner === null || hasOnly(inner as object, nested));
}

function cleanPart(part: ContentPart): ContentPart {
  const keys = PART_KEYS[part.type];
  if (keys === undefined) return part;
  const clean = pick(part, keys);
  const nested = NESTED_KEYS[part.type];
  const inner = (part as Record<string, unknown>)[part.type];
  return nested === undefined || typeof inner !== "object" || inner === null
    ? clean
    : { ...clean, [part.type]: pick(inner as object, nested) };
}

function isCleanCall(call: ToolCall): boolean {
  return hasOnly(call, ["id", "type", "function"]) && hasOnly(call.function, ["name", "arguments"]);
}

/** True when the message has nothing Chat Completions would not take (a reasoning part, a key it does not know). */
export function isChatCompletionClean(message: Message): boolean {
  if (!hasOnly(message, CHAT_COMPLETION_MESSAGE_KEYS[message.role])) return false;
  if (Array.isArray(message.content) && (message.content.length === 0 || !message.content.every(isCleanPart))) return false;
  return message.role !== "assistant" || (message.tool_calls ?? []).every(isCleanCall);
}

/** The message with only what Chat Completions takes: see `CHAT_COMPLETION_MESSAGE_KEYS`; reasoning parts left out. */
export function cleanForChatCompletion(message: Message): Message {
  const clean = pick(message, CHAT_COMPLETION_MESSAGE_KEYS[message.role]);
  if (Array.isArray(message.content)) {
    const parts = message.content.filter((part) => !isReasoningPart(part)).map(cleanPart);
    // An empty list of parts is refused by the API; it says what an empty string says.
    const hasCalls = message.role === "assistant" && (message.tool_calls?.length ?? 0) > 0;
    clean.content = parts.length > 0 ? parts : hasCalls ? null : "";
  }
  if (message.role === "assistant" && message.tool_calls !== undefined)
    (clean as typeof message).tool_calls = message.tool_calls.map((call) =>
      isCleanCall(call)
        ? call
        : { id: call.id, type: "function", function: { name: call.function.name, arguments: call.function.arguments } },
    );
  return clean;
}
