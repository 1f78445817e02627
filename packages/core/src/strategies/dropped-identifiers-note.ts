// What `truncate` leaves of the units it drops: one note, where they stood, naming the identifiers they held
// (paths, names, ids), so a session that outgrows its budget many times over still knows what its past was about.
import { deepFreeze } from "../messages/deep-freeze.js";
import type { Message } from "../messages/message.js";
import { isSummaryEntry, SUMMARY_SOURCE } from "../messages/summary-coverage.js";
import type { ViewEntry } from "../pipeline/strategy.js";
import { firstIdentifiersOf, identifiersOf } from "./message-identifiers.js";

/**
 * How many budgets' worth of the newest dropped messages a note reads (more than one compaction of a session
 * drops): a compaction of a history many times the budget (a long session resumed) reads what the newest drops
 * name, not the whole past.
 */
export const NOTE_READ_BUDGETS = 2;

/** `metadata.ctxkit[NOTE_KEY]` on the note: what it lists, so the next truncation merges rather than re-reads its text. */
const NOTE_KEY = "droppedIdentifiers";

/** How many identifiers the note lists, and at most one per how many tokens of the budget. */
export interface NoteLimits {
  readonly maxIdentifiers: number;
  readonly budgetTokensPerIdentifier?: number;
}

/** What the note carries in `metadata.ctxkit[NOTE_KEY]`, each list most recently dropped first. */
interface NoteMetadata {
  /** What the user and the model wrote: texts and tool-call argument values, the names the session worked with. */
  readonly named: readonly string[];
  /** What tool results showed (a listing, a file), at most `SEEN_PER_RESULT` of each. */
  readonly seen: readonly string[];
  /** History messages dropped since the view began, over every truncation the note stands for. */
  readonly droppedMessages: number;
}

/** A tool result lists many names the session never used (a directory listing, say): only its first few go in the note. */
const SEEN_PER_RESULT = 10;

/** The most identifiers a note lists for `budget`. */
export function noteCapacity(limits: NoteLimits, budget: number): number {
  const { maxIdentifiers, budgetTokensPerIdentifier } = limits;
  return budgetTokensPerIdentifier === undefined
    ? maxIdentifiers
    : Math.min(maxIdentifiers, Math.floor(budget / budgetTokensPerIdentifier));
}

/** The note's own record, when `entry` is a note this module made (never read from a history message's metadata). */
export function readNote(entry: ViewEntry): NoteMetadata | undefined {
  if (!isSummaryEntry(entry)) return undefined;
  const note = entry.message.metadata?.ctxkit?.[NOTE_KEY] as Partial<NoteMetadata> | undefined;
  if (!Array.isArray(note?.named) || !Array.isArray(note.seen) || typeof note.droppedMessages !== "number") return undefined;
  return { named: note.named, seen: note.seen, droppedMessages: note.droppedMessages };
}

export interface NoteInput {
  /**
   * The entries this truncation drops, in view order: all of them, or only the newest, from the end back to
   * where `maxReadTokens` is reached, with `olderDroppedMessages` counting the history messages before them.
   */
  readonly dropped: readonly ViewEntry[];
  /** History messages this truncation drops before `dropped` (not read); 0 when `dropped` holds every drop. */
  readonly olderDroppedMessages?: number;
  /** The note the view held before, if any. */
  readonly previous: NoteMetadata | undefined;
  /** The entries that stay: what they still show needs no listing. */
  readonly kept: readonly ViewEntry[];
  readonly capacity: number;
  /** The most tokens of dropped messages read, newest first: truncate gives `NOTE_READ_BUDGETS` budgets. */
  readonly maxReadTokens: number;
  readonly countMessage: (message: Message) => number;
}

/** `first`, then what `rest` adds, without what `visible` shows, at most `capacity`. */
function mergeLists(first: readonly string[], rest: readonly string[], visible: ReadonlySet<string>, capacity: number): string[] {
  const merged = new Set<string>();
  for (const list of [first, rest])
    for (const identifier of list) {
      if (merged.size >= capacity) return [...merged];
      if (!visible.has(identifier)) merged.add(identifier);
    }
  return [...merged];
}

/**
 * The note for a truncation: the identifiers the newly dropped texts and tool calls named, newest message
 * first, then the previous note's; after them, in the same order, those their tool results showed. Those
 * the kept entries still show are left out, and at most `capacity` are listed; `undefined` when there is
 * none to list. Deterministic, so the same drops give the same note byte for byte.
 */
export function createDroppedIdentifiersNote(input: NoteInput): ViewEntry | undefined {
  const { dropped, previous, kept, capacity, maxReadTokens, countMessage } = input;
  if (capacity <= 0) return undefined;
  const visible = new Set<string>();
  for (const entry of kept) if (!isSummaryEntry(entry)) for (const identifier of identifiersOf(entry.message)) visible.add(identifier);
  const named: string[] = [];
  const seen: string[] = [];
  // What each list holds that the kept entries do not show: once both reach the capacity, older drops cannot
  // change the note (the merge takes the first `capacity` of them), so their texts are not read at all.
  const namedListed = new Set<string>();
  const seenListed = new Set<string>();
  const take = (list: string[], listed: Set<string>, identifiers: readonly string[]): void => {
    for (const identifier of identifiers) {
      list.push(identifier);
      if (!visible.has(identifier)) listed.add(identifier);
    }
  };
  let droppedMessages = (previous?.droppedMessages ?? 0) + (input.olderDroppedMessages ?? 0);
  let readTokens = 0;
  for (let position = dropped.length - 1; position >= 0; position -= 1) {
    const entry = dropped[position]!;
    if (readNote(entry) !== undefined) continue;
    if (entry.source.kind === "history") droppedMessages += 1;
    if (readTokens >= maxReadTokens) continue;
    readTokens += entry.tokens;
    if (entry.message.role === "tool") {
      if (seenListed.size < capacity) take(seen, seenListed, firstIdentifiersOf(entry.message, SEEN_PER_RESULT));
    } else if (namedListed.size < capacity) take(named, namedListed, identifiersOf(entry.message));
  }
  const metadata: NoteMetadata = {
    named: mergeLists(named, previous?.named ?? [], visible, capacity),
    seen: mergeLists(seen, previous?.seen ?? [], visible, capacity),
    droppedMessages,
  };
  const listed = mergeLists(metadata.named, metadata.seen, new Set(), capacity);
  if (listed.length === 0) return undefined;
  const content = `[${droppedMessages} earlier messages were dropped to save context; they named: ${listed.join(", ")}]`;
  const message: Message = { role: "user", content, metadata: { ctxkit: { source: SUMMARY_SOURCE, [NOTE_KEY]: metadata } } };
  // Metadata is never sent, so it does not change the count.
  return deepFreeze({ message, tokens: countMessage(message), source: { kind: "synthetic", origin: SUMMARY_SOURCE } });
}
