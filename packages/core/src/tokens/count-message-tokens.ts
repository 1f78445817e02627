// A message's tokens: its text, its tool-call JSON, and a fixed per-message overhead.
import type { Message } from "../messages/message.js";
import type { TokenBound } from "./token-bound.js";
import type { TokenCounter } from "./token-counter.js";

/** Role markers and separators the chat format adds around every message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** A flat figure per image: its real cost depends on size and detail, which we do not fetch. */
export const IMAGE_TOKENS = 1_000;

/** Collects the text a content value sends, and counts its images. */
function collectContent(content: Message["content"], texts: string[]): number {
  if (content === null) return 0;
  if (typeof content === "string") {
    texts.push(content);
    return 0;
  }
  let images = 0;
  for (const part of content) {
    if (part.type === "text" && typeof part.text === "string") texts.push(part.text);
    else if (part.type === "image_url") images += 1;
    // Unknown parts go to the provider as they are, so their JSON is what costs.
    else texts.push(JSON.stringify(part));
  }
  return images;
}

export function countContentTokens(content: Message["content"], counter: TokenCounter): number {
  const texts: string[] = [];
  const images = collectContent(content, texts);
  return images * IMAGE_TOKENS + (texts.length === 0 ? 0 : counter.count(texts.join("\n")));
}

/** Collects the texts `countMessageTokens` counts into `texts`, and returns the tokens it adds beside them: framing and images. */
function collectMessage(message: Message, texts: string[]): number {
  const images = collectContent(message.content, texts);
  let overhead = MESSAGE_OVERHEAD_TOKENS;
  if (message.name !== undefined) texts.push(message.name);
  if (message.role === "assistant" && message.tool_calls !== undefined) {
    for (const call of message.tool_calls) {
      texts.push(call.function.name, call.function.arguments);
      overhead += MESSAGE_OVERHEAD_TOKENS;
    }
  }
  if (message.role === "tool") texts.push(message.tool_call_id);
  return overhead + images * IMAGE_TOKENS;
}

/**
 * Counts a message with ONE tokenizer call: its texts, name, tool-call names and arguments are
 * joined with newlines, which changes the exact figure by at most a token per join.
 */
export function countMessageTokens(message: Message, counter: TokenCounter): number {
  const texts: string[] = [];
  const fixed = collectMessage(message, texts);
  // One text is counted as it is, and several without joining them when the counter can: joining would copy them.
  if (texts.length > 1 && counter.countJoined !== undefined) return fixed + counter.countJoined(texts);
  const text = texts.length === 1 ? texts[0]! : texts.join("\n");
  return fixed + (text.length === 0 ? 0 : counter.count(text));
}

/**
 * Never below `countMessageTokens(message, counter)` when `bound` is never below `counter.count`: the same framing
 * and images, and the bound of the joined text (each text's, plus one per newline between them).
 */
export function messageTokenBound(message: Message, bound: TokenBound): number {
  const texts: string[] = [];
  const fixed = collectMessage(message, texts);
  let textBound = texts.length === 0 ? 0 : texts.length - 1;
  for (const text of texts) textBound += bound(text);
  return fixed + textBound;
}
