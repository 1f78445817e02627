// Histories every provider can take: the kit's histories, with images only in user messages.
import type { Message } from "@ctxkit/core";
import fc from "fast-check";
import { historyArbitrary } from "../arbitraries/history-arbitrary.js";

export interface PortableHistoryOptions {
  /** Most segments after the leading instructions. Default 8. */
  readonly maxSegments?: number;
}

function textOnly(message: Message): Message {
  if (message.role === "user" || typeof message.content === "string" || message.content === null) return message;
  return { ...message, content: message.content.filter((part) => part.type === "text") } as Message;
}

/** Ids as other providers mint them (`functions.read_file:0`), which Anthropic's id pattern refuses. */
function withForeignIds(history: readonly Message[]): Message[] {
  const rename = (id: string) => `functions.${id}:0`;
  return history.map((message) => {
    if (message.role === "tool") return { ...message, tool_call_id: rename(message.tool_call_id) };
    if (message.role !== "assistant" || message.tool_calls === undefined) return message;
    return { ...message, tool_calls: message.tool_calls.map((call) => ({ ...call, id: rename(call.id) })) };
  });
}

/**
 * Tool results marked as errors by `mask` (one bit per tool message), an error's content sometimes as text
 * parts: tool errors reach an adapter both ways, and a provider that keeps the flag must keep it for both.
 */
function withToolErrors(history: readonly Message[], mask: number): Message[] {
  let position = 0;
  return history.map((message) => {
    if (message.role !== "tool") return message;
    position += 1;
    if (((mask >>> (position % 30)) & 1) === 0) return message;
    const content =
      typeof message.content === "string" && (mask >>> ((position + 7) % 30)) & 1 && message.content.trim() !== ""
        ? [{ type: "text" as const, text: message.content }]
        : message.content;
    return { ...message, content, is_error: true };
  });
}

/**
 * A well-formed history (no broken tool pairs, no huge outputs) that every provider's request can carry:
 * images only in user messages, text elsewhere; some tool results are errors (`is_error`), some of those as
 * text parts; in about a third of the histories every tool-call id is in the `functions.<id>:0` form other
 * providers use.
 */
export function portableHistoryArbitrary(options: PortableHistoryOptions = {}): fc.Arbitrary<Message[]> {
  return fc
    .tuple(historyArbitrary({ hugeOutputs: false, maxSegments: options.maxSegments ?? 8 }), fc.nat({ max: 2 }), fc.nat())
    .map(([history, variant, errors]) => {
      const portable = withToolErrors(history.map(textOnly), errors);
      return variant === 0 ? withForeignIds(portable) : portable;
    });
}
