// trim-long-text: shortens any text over a limit to a head, a marker and a tail, never splitting a character.
// Long tool-call arguments are shortened too, string by string, so they stay valid JSON.
import * as z from "zod/mini";
import type { ContentPart, Message, TextPart, ToolCall } from "../messages/message.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { findContextEdit, isProtectedEntry, redraftEntries, replaceEntryMessage } from "../pipeline/view-draft.js";
import { reachFor } from "../pipeline/reach-for.js";
import { leftForTruncation } from "../pipeline/left-for-truncation.js";
import { declareTruncatedPastRole } from "../pipeline/truncated-past.js";
import { NOTE_READ_BUDGETS } from "./dropped-identifiers-note.js";
import { parseConfig } from "../modules/parse-config.js";
import { utf8ByteLength } from "../tokens/token-bound.js";

const NAME = "trim-long-text";

/** Lengths are in UTF-16 code units (`String.length`), so the check costs nothing on untouched text. */
export interface TrimLongTextOptions {
  /** Texts longer than this are trimmed. Default 20 000. */
  maxChars?: number;
  /** Kept from the start of a trimmed text. Default 40% of `maxChars`. */
  headChars?: number;
  /** Kept from the end of a trimmed text. Default 20% of `maxChars`. */
  tailChars?: number;
  /**
   * Set when a `truncate` runs after this strategy in the pipeline (the default pipeline does): texts of old
   * units that could not fit the target even trimmed are left for it to drop, rather than trimmed first, but
   * for the newest of them, which its note reads. Leave it off when that truncate keeps more leading messages than
   * the manager's `protectFirst` (its own `protectFirst` option). Default false: every long text is trimmed,
   * oldest first, until the view is within the target.
   */
  truncateFollows?: boolean;
}

/** The options checked: unknown keys and bad values are refused, defaults filled in. */
export const optionsSchema = z
  .pipe(
    z.strictObject({
      maxChars: z._default(z.int().check(z.positive()), 20_000),
      headChars: z.optional(z.int().check(z.nonnegative())),
      tailChars: z.optional(z.int().check(z.nonnegative())),
      truncateFollows: z._default(z.boolean(), false),
    }),
    // The head usually holds the command and the first output, the tail the result or the error.
    // Keeping 60% leaves a trimmed text well under the limit, so one trim is enough.
    z.transform(({ maxChars, headChars = Math.floor(maxChars * 0.4), tailChars = Math.floor(maxChars * 0.2), truncateFollows }) => ({
      maxChars,
      headChars,
      tailChars,
      truncateFollows,
    })),
  )
  // Checked on the filled-in values: a head and tail as long as the limit would leave nothing to trim.
  .check(
    z.superRefine(({ maxChars, headChars, tailChars }, context) => {
      if (headChars + tailChars >= maxChars) {
        context.addIssue({
          code: "custom",
          path: ["headChars"],
          message: `headChars + tailChars (${headChars + tailChars}) must be below maxChars (${maxChars})`,
        });
      }
    }),
  );

export function trimLongText(options?: TrimLongTextOptions): Strategy {
  return createTrimLongText(NAME, options);
}

/**
 * A trim-long-text that runs and records its edits as `name`. It skips what it trimmed itself (its own
 * trims are within its limit already), but not what a trim under another name did: a later pass with a
 * lower limit (the last resort's) must shorten again what the configured one left at its own limit.
 */
export function createTrimLongText(name: string, options?: TrimLongTextOptions): Strategy {
  const { maxChars, headChars, tailChars, truncateFollows } = parseConfig(NAME, optionsSchema, options ?? {});

  const trimContent = (content: Message["content"]): Message["content"] | undefined => {
    if (typeof content === "string") return content.length > maxChars ? trimText(content, headChars, tailChars) : undefined;
    if (content === null || !content.some((part) => isLongTextPart(part, maxChars))) return undefined;
    return content.map((part) => (isLongTextPart(part, maxChars) ? { ...part, text: trimText(part.text, headChars, tailChars) } : part));
  };

  // Arguments must stay valid JSON for the provider, so long string values inside are trimmed instead.
  const trimArguments = (text: string): string | undefined => {
    if (text.length <= maxChars) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    const limit = Math.floor(maxChars / 2);
    const trimValue = (value: unknown): unknown => {
      if (typeof value === "string")
        return value.length > limit ? trimText(value, Math.floor(headChars / 2), Math.floor(tailChars / 2)) : value;
      if (Array.isArray(value)) return value.map(trimValue);
      if (value !== null && typeof value === "object")
        return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, trimValue(child)]));
      return value;
    };
    const trimmed = JSON.stringify(trimValue(parsed));
    return trimmed.length < text.length ? trimmed : undefined;
  };

  const trimMessage = (message: Message): Message | undefined => {
    const content = trimContent(message.content);
    let toolCalls: ToolCall[] | undefined;
    if (message.role === "assistant" && message.tool_calls !== undefined) {
      message.tool_calls.forEach((call, index) => {
        const trimmedArguments = trimArguments(call.function.arguments);
        if (trimmedArguments === undefined) return;
        toolCalls ??= [...message.tool_calls!];
        toolCalls[index] = { ...call, function: { ...call.function, arguments: trimmedArguments } };
      });
    }
    if (content === undefined && toolCalls === undefined) return undefined;
    return {
      ...message,
      ...(content === undefined ? {} : { content }),
      ...(toolCalls === undefined ? {} : { tool_calls: toolCalls }),
    } as Message;
  };

  const strategy: Strategy = {
    name,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      let entries: ViewEntry[] | undefined;
      let tokens = view.tokens;
      // Oldest first, not longest first: the next step most likely depends on recent outputs, and
      // longest first would trim the huge output the agent just asked for before an old, merely long one.
      const reach = reachFor(context);
      // A truncation goes to the target, a forced one too (only shortening goes further then).
      const isLeftForTruncation = truncateFollows
        ? leftForTruncation(view, {
            reach: context.target,
            protectFirst: context.protectFirst,
            // A message holding a long text may be trimmed: it counts nothing toward the entries that stay.
            floorOf: (index) => (hasLongText(view.entries[index]!.message, maxChars) ? 0 : view.entries[index]!.tokens),
            readWindow: NOTE_READ_BUDGETS * context.budget,
          })
        : () => false;
      // By index rather than with `entries()`, which makes a pair for each of a long view's entries.
      for (let index = 0; index < view.entries.length; index += 1) {
        if (tokens <= reach) break;
        // Asked first, as the cheapest check and the one that holds for most of a long view's messages.
        if (isLeftForTruncation(index)) continue;
        const entry = view.entries[index]!;
        if (findContextEdit(entry)?.strategy === name) continue;
        // Nothing long to trim is the common case, and the cheaper check: asked first.
        const message = trimMessage(entry.message);
        if (message === undefined || !isProtectedEntry(view, index, context.protectFirst).canAlter) continue;
        const trimmed = replaceEntryMessage(entry, message, name, context.countMessage);
        if (trimmed.tokens >= entry.tokens) continue;
        entries ??= [...view.entries];
        entries[index] = trimmed;
        tokens += trimmed.tokens - entry.tokens;
      }
      return entries === undefined ? { view, applied: false } : { view: redraftEntries(view, entries), applied: true };
    },
  };
  if (!truncateFollows) return strategy;
  return declareTruncatedPastRole(strategy, {
    kind: "shortens",
    floorOf: (message, tokens) => (hasLongText(message, maxChars) ? 0 : tokens),
    readBudgets: NOTE_READ_BUDGETS,
  });
}

/** Whether `message` holds a text or tool-call arguments over `maxChars`: what a trim could shorten. */
function hasLongText(message: Message, maxChars: number): boolean {
  const { content } = message;
  if (typeof content === "string" ? content.length > maxChars : content?.some((part) => isLongTextPart(part, maxChars)) === true)
    return true;
  return (
    message.role === "assistant" &&
    message.tool_calls !== undefined &&
    message.tool_calls.some((call) => call.function.arguments.length > maxChars)
  );
}

function isLongTextPart(part: ContentPart, maxChars: number): part is TextPart {
  return part.type === "text" && typeof part.text === "string" && part.text.length > maxChars;
}

const MARKER = (removed: number) => `\n[… ${removed} characters trimmed …]\n`;

/**
 * `text` cut to at most `headChars` + marker + at most `tailChars`, both cuts on character boundaries.
 * `text` itself when the marker would be no shorter in UTF-8 than what it replaces: a trimmed form is
 * always shorter than its original, whatever unit a reader measures it in.
 */
export function trimText(text: string, headChars: number, tailChars: number): string {
  const headEnd = findBoundary(text, headChars, "before");
  const tailStart = findBoundary(text, text.length - tailChars, "after");
  if (tailStart <= headEnd) return text;
  const marker = MARKER(countCodePoints(text, headEnd, tailStart));
  if (utf8ByteLength(marker) >= utf8ByteLength(text.slice(headEnd, tailStart)) || marker.length >= tailStart - headEnd) return text;
  return text.slice(0, headEnd) + marker + text.slice(tailStart);
}

const ELLIPSIS = "…";
const ELLIPSIS_BYTES = 3;

/**
 * `text` cut to at most `headChars` and an ellipsis, on a character boundary: the terse form of `trimText`.
 * `text` itself when the ellipsis would be no shorter in UTF-8 than what it replaces (a 22-character text
 * ending in "! " is not shortened by swapping those two bytes for the ellipsis's three).
 */
export function cutText(text: string, headChars: number): string {
  if (text.length <= headChars) return text;
  const headEnd = findBoundary(text, headChars, "before");
  // Every UTF-16 unit is at least one byte in UTF-8: only a tail of three units or fewer needs measuring.
  if (text.length - headEnd <= ELLIPSIS_BYTES && utf8ByteLength(text.slice(headEnd)) <= ELLIPSIS_BYTES) return text;
  return text.slice(0, headEnd) + ELLIPSIS;
}

// Made on the first cut that needs it, not at import: building one loads ICU's break rules (tens of milliseconds).
let segmenter: Intl.Segmenter | null | undefined;
function getSegmenter(): Intl.Segmenter | undefined {
  segmenter ??= typeof Intl.Segmenter === "function" ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  return segmenter ?? undefined;
}
/** Graphemes are segmented only in a small window around a cut, so trimming stays linear. */
const WINDOW = 32;

/**
 * The nearest grapheme boundary at or before (or after) `index`, so a cut never separates a base
 * character from its combining marks or splits an emoji sequence. When no boundary is found in the
 * window (a very long cluster), it falls back to a code point boundary: never inside a surrogate pair.
 */
function findBoundary(text: string, index: number, direction: "before" | "after"): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  // Between two ASCII characters there is always a grapheme boundary, but inside a CR LF: no need to
  // segment, which costs far more than the rest of a trim and runs for every message a compaction shortens.
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  if (before < 0x80 && after < 0x80 && !(before === 0x0d && after === 0x0a)) return index;
  const isInsidePair = isHighSurrogate(text.charCodeAt(index - 1)) && isLowSurrogate(text.charCodeAt(index));
  const fallback = isInsidePair ? index + (direction === "before" ? -1 : 1) : index;
  const graphemes = getSegmenter();
  if (graphemes === undefined) return fallback;
  const start = Math.max(0, index - WINDOW);
  const end = Math.min(text.length, index + WINDOW);
  let found: number | undefined;
  // The window's edges are not real boundaries (unless they are the text's), so they are never chosen.
  for (const segment of graphemes.segment(text.slice(start, end))) {
    const boundary = start + segment.index;
    if (boundary === start && start > 0) continue;
    if (direction === "before" && boundary <= index) found = boundary;
    if (direction === "after" && boundary >= index) return boundary;
  }
  if (direction === "after") return end === text.length ? end : fallback;
  return found ?? fallback;
}

function countCodePoints(text: string, start: number, end: number): number {
  let count = 0;
  for (let index = start; index < end; index += 1) {
    if (!(isLowSurrogate(text.charCodeAt(index)) && index > start && isHighSurrogate(text.charCodeAt(index - 1)))) count += 1;
  }
  return count;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
