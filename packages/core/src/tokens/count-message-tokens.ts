// A message's tokens: its text, its tool-call JSON, and a fixed per-message overhead.
import type { ContentPart, Message } from "../messages/message.js";
import type { TokenCounter } from "./token-counter.js";

/** Role markers and separators the chat format adds around every message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** A flat figure per image: its real cost depends on size and detail, which we do not fetch. */
export const IMAGE_TOKENS = 1_000;

function countPart(part: ContentPart, counter: TokenCounter): number {
  if (part.type === "text" && typeof part.text === "string") return counter.count(part.text);
  if (part.type === "image_url") return IMAGE_TOKENS;
  // Unknown parts go to the provider as they are, so their JSON is what costs.
  return counter.count(JSON.stringify(part));
}

export function countContentTokens(content: Message["content"], counter: TokenCounter): number {
  if (content === null) return 0;
  if (typeof content === "string") return counter.count(content);
  let total = 0;
  for (const part of content) total += countPart(part, counter);
  return total;
}

export function countMessageTokens(message: Message, counter: TokenCounter): number {
  let total = MESSAGE_OVERHEAD_TOKENS + countContentTokens(message.content, counter);
  if (message.name !== undefined) total += counter.count(message.name) + 1;
  if (message.role === "assistant" && message.tool_calls !== undefined) {
    for (const call of message.tool_calls) {
      total += counter.count(call.function.name) + counter.count(call.function.arguments) + MESSAGE_OVERHEAD_TOKENS;
    }
  }
  if (message.role === "tool") total += counter.count(message.tool_call_id);
  return total;
}
