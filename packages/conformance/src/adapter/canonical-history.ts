// What a round trip through a provider must keep, with the normalizations every provider is allowed.
import type { ContentPart, Message } from "@ctxkit/core";
import { isInstruction, textOfPart } from "@ctxkit/core/kit";

export type CanonicalItem =
  | { readonly role: string; readonly text: string }
  | { readonly role: string; readonly image: string }
  | { readonly role: string; readonly part: string }
  | { readonly call: string; readonly name: string; readonly arguments: string }
  | { readonly result: string; readonly error?: true };

export interface CanonicalHistoryOptions {
  /** Compare each tool result's error flag (`is_error`) too: for a provider whose shape carries it. */
  readonly toolErrors?: boolean;
}

export interface CanonicalHistory {
  /** The instructions' text, in order: providers may move them to a `system` option. */
  readonly instructions: readonly string[];
  /** Everything else, in order. */
  readonly conversation: readonly CanonicalItem[];
}

function partsOf(content: Message["content"]): readonly ContentPart[] {
  if (content === null) return [];
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function itemOf(role: string, part: ContentPart): CanonicalItem | undefined {
  if (part.type === "text" || part.type === "refusal") {
    const text = textOfPart(part);
    return text.trim() === "" ? undefined : { role, text };
  }
  if (part.type === "image_url") return { role, image: String((part.image_url as { url?: unknown } | undefined)?.url) };
  return { role, part: part.type };
}

/**
 * A history as a provider must keep it. Allowed everywhere: `metadata` and `name` leave ctxkit; system and
 * developer messages are instructions, possibly moved apart; consecutive messages of one role may merge, so
 * adjacent texts of one role are compared joined; blank texts may be left out; a refusal may become text; an
 * image keeps its URL, not its detail. Tool calls and results keep their ids, names, arguments and order, and
 * with `toolErrors` a result's error flag.
 */
export function canonicalHistory(messages: readonly Message[], options: CanonicalHistoryOptions = {}): CanonicalHistory {
  const instructions: string[] = [];
  const conversation: CanonicalItem[] = [];
  const push = (item: CanonicalItem | undefined) => {
    if (item === undefined) return;
    const last = conversation.at(-1);
    if (last !== undefined && "text" in last && "text" in item && last.role === item.role)
      conversation[conversation.length - 1] = { role: item.role, text: last.text + item.text };
    else conversation.push(item);
  };
  for (const message of messages) {
    if (isInstruction(message)) {
      for (const part of partsOf(message.content)) {
        const item = itemOf("system", part);
        if (item !== undefined) instructions.push("text" in item ? item.text : JSON.stringify(item));
      }
      continue;
    }
    if (message.role === "tool")
      push(
        options.toolErrors === true && message.is_error === true
          ? { result: message.tool_call_id, error: true }
          : { result: message.tool_call_id },
      );
    for (const part of partsOf(message.content)) push(itemOf(message.role === "tool" ? "tool" : message.role, part));
    if (message.role === "assistant")
      for (const call of message.tool_calls ?? []) push({ call: call.id, name: call.function.name, arguments: call.function.arguments });
  }
  return { instructions, conversation };
}
