// Relates a view's messages to the history they were taken from.
import type { Message } from "@ctxkit/core";
import { isSynthetic } from "@ctxkit/core/kit";
import { isDeepEqual } from "./deep-equal.js";

function callIds(message: Message): string[] | undefined {
  return message.role === "assistant" ? message.tool_calls?.map((call) => call.id) : undefined;
}

function textOf(message: Message): string {
  const { content } = message;
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : "")).join("\n");
}

/** How many leading (or trailing) characters a shortened text must keep to count as the same message. */
const ANCHOR_LENGTH = 8;

/**
 * A shortened form keeps what pairs and addresses the message (role, name, tool_call_id, call ids); a
 * manager may mark it in `metadata`. A tool result (or a call) is identified by its ids, so any content
 * will do, a placeholder included (a placeholder has fewer tokens, not always fewer characters). Any
 * other message must carry fewer bytes and keep the start or the end of its text: otherwise any user
 * message would pass for a shortened form of another.
 */
export function isShortenedForm(candidate: Message, original: Message): boolean {
  if (candidate.role !== original.role || candidate.name !== original.name) return false;
  if (candidate.role === "tool" && original.role === "tool" && candidate.tool_call_id !== original.tool_call_id) return false;
  const ids = callIds(original);
  if (!isDeepEqual(callIds(candidate), ids)) return false;
  if (isDeepEqual(candidate.content, original.content)) return true;
  if (candidate.role === "tool" || ids !== undefined) return true;
  const shortened = textOf(candidate);
  const text = textOf(original);
  if (Buffer.byteLength(shortened) >= Buffer.byteLength(text)) return false;
  const anchor = Math.min(ANCHOR_LENGTH, text.length);
  return (
    shortened.length >= anchor && (shortened.startsWith(text.slice(0, anchor)) || shortened.endsWith(text.slice(text.length - anchor)))
  );
}

export function isEqualOrShortened(candidate: Message, original: Message): boolean {
  return isDeepEqual(candidate, original) || isShortenedForm(candidate, original);
}

/**
 * Matches each non-synthetic view message, in order, to a distinct later history message it equals or
 * shortens. Taking the earliest match each time finds an embedding whenever one exists.
 * Returns the index in `view` of the first message that has no match, or -1.
 */
export function findUnmatchedViewMessage(view: readonly Message[], history: readonly Message[]): number {
  let cursor = 0;
  for (const [index, message] of view.entries()) {
    if (isSynthetic(message)) continue;
    while (cursor < history.length && !isEqualOrShortened(message, history[cursor]!)) cursor += 1;
    if (cursor === history.length) return index;
    cursor += 1;
  }
  return -1;
}

export interface RequiredMessage {
  readonly historyIndex: number;
  readonly message: Message;
  /** Whether a shortened form is acceptable, or the message must appear exactly as given. */
  readonly mayShorten: boolean;
  readonly why: string;
}

/** The first required message (in order) that the view does not contain, in that order; or undefined. */
export function findMissingRequired(view: readonly Message[], required: readonly RequiredMessage[]): RequiredMessage | undefined {
  let cursor = 0;
  for (const item of required) {
    const matches = (candidate: Message) =>
      item.mayShorten ? isEqualOrShortened(candidate, item.message) : isDeepEqual(candidate, item.message);
    while (cursor < view.length && !matches(view[cursor]!)) cursor += 1;
    if (cursor === view.length) return item;
    cursor += 1;
  }
  return undefined;
}
