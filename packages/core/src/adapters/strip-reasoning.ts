// ONE policy for reasoning and thinking parts when a history moves between providers.
//
// A reasoning part (an Anthropic `thinking` or `redacted_thinking` block with its signature, an OpenAI
// Responses `reasoning` item with its encrypted content, an AI SDK `reasoning` part, a Gemini thought or signature) is valid only for the
// provider that produced it. Each adapter's `to…` function sends its own provider's parts back byte-identical and
// leaves every other provider's out, whole: signatures and encrypted content are never edited or re-attributed.
// `stripReasoning` is that removal, for callers who want a history without any reasoning.
import type { AssistantMessage, ContentPart, Message } from "../messages/message.js";

/** The part types that carry a model's reasoning, whichever provider produced them. */
export const REASONING_PART_TYPES: ReadonlySet<string> = new Set([
  "reasoning",
  "thinking",
  "redacted_thinking",
  "openai_agents_reasoning",
  // Gemini's thought parts and the thought signatures kept beside the parts they sign (@ctxkit/google).
  "gemini_thought",
  "gemini_thought_signature",
]);

export function isReasoningPart(part: ContentPart): boolean {
  return REASONING_PART_TYPES.has(part.type);
}

export interface StripReasoningOptions {
  /** Reasoning parts to keep (the receiving provider's own). Default: none. */
  readonly keep?: (part: ContentPart) => boolean;
}

/**
 * The messages without reasoning parts. A message with none is returned as the same object, so a stable prefix
 * stays identical; an assistant message left with no part reads as `""` (or `null` beside its tool calls),
 * never as an empty list that says nothing.
 */
export function stripReasoning(messages: readonly Message[], options: StripReasoningOptions = {}): Message[] {
  const keep = options.keep ?? (() => false);
  return messages.map((message) => {
    if (message.role !== "assistant" || !Array.isArray(message.content)) return message;
    const content = message.content.filter((part) => !isReasoningPart(part) || keep(part));
    if (content.length === message.content.length) return message;
    const hasCalls = message.tool_calls !== undefined && message.tool_calls.length > 0;
    const stripped: AssistantMessage = { ...message, content: content.length > 0 ? content : hasCalls ? null : "" };
    return stripped;
  });
}
