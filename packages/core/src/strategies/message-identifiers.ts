// The identifiers a message names (paths, names, ids), read once per message: a compaction asks for them from
// clearing (what newer results show, each placeholder's digest) and from truncate's note (what the kept entries
// show, what the drops held), and messages are frozen and shared by every view over them.
import type { Message } from "../messages/message.js";
import { contentText, scanIdentifiers } from "./tool-result-digest.js";

/** What has been read of a message: its identifiers in order of first appearance, and whether that is all of them. */
interface ReadIdentifiers {
  readonly identifiers: readonly string[];
  readonly isComplete: boolean;
}

const readByMessage = new WeakMap<Message, ReadIdentifiers>();

/** The string values of a tool call's JSON arguments (never its keys, which name the tool's parameters), or the raw text. */
function argumentValues(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [text];
  }
  const values: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === "string") values.push(value);
    else if (Array.isArray(value)) for (const item of value) visit(item);
    else if (value !== null && typeof value === "object") for (const child of Object.values(value)) visit(child);
  };
  visit(parsed);
  return values;
}

/** The first `limit` distinct identifiers of `message`, reading no further into its texts than they need. */
function read(message: Message, limit: number): ReadIdentifiers {
  if (limit <= 0) return { identifiers: [], isComplete: false };
  const texts = [contentText(message.content)];
  if (message.role === "assistant") for (const call of message.tool_calls ?? []) texts.push(...argumentValues(call.function.arguments));
  if (texts.length === 1) {
    const identifiers = scanIdentifiers(texts[0]!, limit);
    return { identifiers: Object.freeze(identifiers), isComplete: identifiers.length < limit };
  }
  const found = new Set<string>();
  for (const text of texts) {
    // The text's own first `limit`, not only as many as are missing: some of them may be known already.
    for (const identifier of scanIdentifiers(text, limit)) {
      found.add(identifier);
      if (found.size >= limit) return { identifiers: Object.freeze([...found]), isComplete: false };
    }
  }
  return { identifiers: Object.freeze([...found]), isComplete: true };
}

/**
 * The distinct identifiers of a message's text and, for an assistant, its tool-call argument values, in
 * order of first appearance (each text read up to its first 20 000 characters, as `scanIdentifiers` does).
 */
export function identifiersOf(message: Message): readonly string[] {
  let known = readByMessage.get(message);
  if (known?.isComplete !== true) {
    known = read(message, Number.POSITIVE_INFINITY);
    readByMessage.set(message, known);
  }
  return known.identifiers;
}

/** The first `count` of `identifiersOf(message)`, reading only as far into the message as they need. */
export function firstIdentifiersOf(message: Message, count: number): readonly string[] {
  let known = readByMessage.get(message);
  if (known === undefined || (!known.isComplete && known.identifiers.length < count)) {
    known = read(message, count);
    readByMessage.set(message, known);
  }
  return known.identifiers.length > count ? known.identifiers.slice(0, count) : known.identifiers;
}
