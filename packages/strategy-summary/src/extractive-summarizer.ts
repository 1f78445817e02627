// A summarizer without an LLM: deterministic notes of the user's requests, the agent's latest notes and its tool use.
import type { Message } from "@ctxkit/core";
import { EMPTY_NOTES, parseNotes, renderNotes, type NoteList } from "./extractive-notes.js";
import { contentText } from "./message-text.js";
import type { Summarizer } from "./summarizer.js";

export interface ExtractiveSummarizerOptions {
  /** Characters kept of each user message. Default 400. */
  maxRequestChars?: number;
  /** Characters kept of each assistant message's text. Default 500. */
  maxNoteChars?: number;
}

/** Used when the request gives no `maxTokens`. */
const DEFAULT_MAX_TOKENS = 1_000;
const EARLIER_CHARS = 1_000;

/** One line: whitespace collapsed, cut to `maxChars` code points with an ellipsis. Idempotent. */
function toLine(text: string, maxChars: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  const codePoints = Array.from(line);
  if (codePoints.length <= maxChars) return line;
  return `${codePoints
    .slice(0, Math.max(0, maxChars - 1))
    .join("")
    .trimEnd()}…`;
}

/** An overestimate for any tokenizer (no token is shorter than a third of a UTF-8 byte triple here). */
function estimateTokens(text: string): number {
  return Math.ceil(utf8Length(text) / 3);
}

/** UTF-8 bytes of `text`, a lone surrogate as the three of U+FFFD; counted here because edge runtimes have no Buffer. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * Keeps the newest items that fit `budget`, stopping at the first that does not. Because it is greedy
 * from the newest end with a fixed budget, extending a summary gives the same notes as summarizing
 * everything at once: a resumed session rebuilds exactly the view it had.
 */
function keepNewest(items: readonly string[], omitted: number, budget: number): NoteList {
  let used = 0;
  let first = items.length;
  while (first > 0) {
    const cost = estimateTokens(`- ${items[first - 1]!}\n`);
    if (used + cost > budget) break;
    used += cost;
    first -= 1;
  }
  return { items: items.slice(first), omitted: omitted + first };
}

/**
 * Keeps the user's requests (40% of the length asked) and the assistant's latest notes (45%), newest
 * first when they do not all fit, and counts tool calls by name. File lists are added by the summary
 * strategy itself, for every summarizer. Needs no network, so tests and demos run offline.
 */
export function extractiveSummarizer(options: ExtractiveSummarizerOptions = {}): Summarizer {
  const { maxRequestChars = 400, maxNoteChars = 500 } = options;
  return async ({ messages, previousSummary, signal, maxTokens = DEFAULT_MAX_TOKENS }) => {
    signal.throwIfAborted();
    const previous = previousSummary === undefined ? EMPTY_NOTES : parseNotes(previousSummary, (text) => toLine(text, EARLIER_CHARS));
    const requests = [...previous.requests.items];
    const conclusions = [...previous.conclusions.items];
    const toolCalls = new Map(previous.toolCalls);
    for (const message of messages as readonly Message[]) {
      if (message.role === "user") {
        const line = toLine(contentText(message.content), maxRequestChars);
        if (line !== "") requests.push(line);
      } else if (message.role === "assistant") {
        const line = toLine(contentText(message.content), maxNoteChars);
        if (line !== "") conclusions.push(line);
        for (const call of message.tool_calls ?? []) toolCalls.set(call.function.name, (toolCalls.get(call.function.name) ?? 0) + 1);
      }
    }
    return renderNotes({
      earlier: previous.earlier,
      requests: keepNewest(requests, previous.requests.omitted, Math.floor(maxTokens * 0.4)),
      conclusions: keepNewest(conclusions, previous.conclusions.omitted, Math.floor(maxTokens * 0.45)),
      toolCalls,
    });
  };
}
