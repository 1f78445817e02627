// truncate: drops the oldest whole units that invariant 5 and `protectFirst` allow to be dropped.
import * as z from "zod/mini";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { createViewDraft, DROPPABLE_UNIT, elidedRunOf, HISTORY_ENTRY, SUMMARY_UNIT, unitDropFlags } from "../pipeline/view-draft.js";
import { declareTruncatedPastRole } from "../pipeline/truncated-past.js";
import { parseConfig } from "../modules/parse-config.js";
import { createDroppedIdentifiersNote, NOTE_READ_BUDGETS, noteCapacity, readNote } from "./dropped-identifiers-note.js";

const NAME = "truncate";

export interface TruncateOptions {
  /**
   * Keeps this many leading history messages on top of the manager's `protectFirst` (the larger of the
   * two wins), e.g. to keep a task statement that is not pinned. Default 0.
   */
  protectFirst?: number;
  /**
   * With it, the dropped units leave one note where they stood, naming up to this many identifiers (paths,
   * names, ids) they held that the rest of the view does not show, the most recently dropped first; the
   * next truncation merges its drops into that note rather than adding another. Default 0: no note.
   */
  noteIdentifiers?: number;
  /** With it, the note lists at most one identifier per this many tokens of the budget (and `noteIdentifiers` at most). A whole number. */
  budgetTokensPerIdentifier?: number;
}

/** The options checked: unknown keys and bad values are refused, defaults filled in. */
export const optionsSchema = z.strictObject({
  protectFirst: z._default(z.int().check(z.nonnegative()), 0),
  noteIdentifiers: z._default(z.int().check(z.nonnegative()), 0),
  budgetTokensPerIdentifier: z.optional(z.int().check(z.positive())),
});

/** The units a truncation marks to drop (one flag per unit rather than a set: a first view drops most of 100,000), the view's tokens without them, and how many. */
interface Drops {
  readonly dropped: Uint8Array;
  tokens: number;
  count: number;
}

const PLAIN = DROPPABLE_UNIT;
const SUMMARY = DROPPABLE_UNIT | SUMMARY_UNIT;

/**
 * Marks the oldest plain units (that may be dropped and hold no summary) until the view is within `target`, or all
 * of them, with nothing marked yet. Found from the newest back: dropping every plain unit up to one leaves the view's
 * other units and the plain units after it, so only the units that stay are read, not the many a long view drops.
 */
function dropOldestPlain(view: ViewDraft, flags: Uint8Array, target: number, drops: Drops): void {
  if (drops.tokens <= target) return;
  const isPlain = (index: number) => (flags[view.units[index]!.start]! & SUMMARY) === PLAIN;
  // The tokens of every plain unit: the view's less the other entries' (few: instructions, pins, the current turn, summaries).
  let plainTokens = drops.tokens;
  for (let position = 0; position < flags.length; position += 1)
    if ((flags[position]! & SUMMARY) !== PLAIN) plainTokens -= view.entries[position]!.tokens;
  // Every plain unit up to `last` dropped leaves `drops.tokens - plainTokens + kept`, `kept` the plain units after it:
  // `last` is the oldest for which that is within the target, or the newest plain unit when even all of them are not.
  let last = view.units.length - 1;
  while (last >= 0 && !isPlain(last)) last -= 1;
  let keptAfterLast = 0;
  if (drops.tokens - plainTokens <= target) {
    let kept = 0;
    for (let index = last; index >= 0; index -= 1) {
      if (!isPlain(index)) continue;
      if (drops.tokens - plainTokens + kept > target) break;
      last = index;
      keptAfterLast = kept;
      kept += unitTokens(view, index);
    }
  }
  for (let index = 0; index <= last; index += 1)
    if (isPlain(index)) {
      drops.dropped[index] = 1;
      drops.count += 1;
    }
  drops.tokens -= plainTokens - keptAfterLast;
}

/** Marks, oldest first, the units of kind `wanted` not marked yet, until the view is within `target`. */
function dropInOrder(view: ViewDraft, flags: Uint8Array, target: number, wanted: number, drops: Drops): void {
  for (let index = 0; index < view.units.length && drops.tokens > target; index += 1) {
    if ((flags[view.units[index]!.start]! & SUMMARY) !== wanted || drops.dropped[index] === 1) continue;
    drops.dropped[index] = 1;
    drops.count += 1;
    drops.tokens -= unitTokens(view, index);
  }
}

function unitTokens(view: ViewDraft, index: number): number {
  const unit = view.units[index]!;
  let tokens = 0;
  for (let position = unit.start; position < unit.end; position += 1) tokens += view.entries[position]!.tokens;
  return tokens;
}

export function truncate(options?: TruncateOptions): Strategy {
  const { protectFirst: ownProtectFirst, noteIdentifiers, budgetTokensPerIdentifier } = parseConfig(NAME, optionsSchema, options ?? {});
  const limits = { maxIdentifiers: noteIdentifiers, ...(budgetTokensPerIdentifier === undefined ? {} : { budgetTokensPerIdentifier }) };

  const strategy: Strategy = {
    name: NAME,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      const protectFirst = Math.max(context.protectFirst, ownProtectFirst);
      // Read once per unit and draft: the strategies before this one asked the same of the same units.
      const flags = unitDropFlags(view, protectFirst);
      // Oldest first, and a summary only when nothing else is left to drop: it stands for many units.
      // A protected unit is stepped over rather than ending the walk, so a pinned or system message in
      // the middle does not shield everything after it.
      const drops: Drops = { dropped: new Uint8Array(view.units.length), tokens: view.tokens, count: 0 };
      dropOldestPlain(view, flags, context.target, drops);
      dropInOrder(view, flags, context.target, SUMMARY, drops);
      if (drops.count === 0) return { view, applied: false };
      const { dropped } = drops;
      const capacity = noteCapacity(limits, context.budget);
      const note = capacity > 0 ? noteFor(view, flags, dropped, capacity, context) : undefined;
      if (note === undefined) return { view: createViewDraft(keptEntries(view, dropped)), applied: true };
      // The note takes room: what it adds over the note it replaces is found among the other old units.
      let { entry, tokens } = note;
      if (entry !== undefined && tokens > context.target) {
        dropInOrder(view, flags, context.target - (entry.tokens - note.replacedTokens), PLAIN, drops);
        const again = noteFor(view, flags, dropped, capacity, context);
        entry = again?.entry;
        tokens = again?.tokens ?? tokens;
      }
      // A note costing what the drops saved (a few short messages) would leave the view no smaller, and a
      // truncation must shrink it (a provider's overflow is answered by a smaller view): the room goes first.
      if (entry === undefined || tokens >= view.tokens) return { view: createViewDraft(keptEntries(view, dropped)), applied: true };
      return { view: createViewDraft(keptEntries(view, dropped, note.position, entry)), applied: true };
    },
  };
  return declareTruncatedPastRole(strategy, { kind: "truncates", protectFirst: ownProtectFirst, readBudgets: NOTE_READ_BUDGETS });
}

/**
 * The note for `dropped`: it replaces the view's previous note where that stood, or stands where the
 * first dropped unit did. `undefined` when the truncation dropped the previous note itself (nothing else
 * was left), since the room it took is what the view needed.
 */
function noteFor(
  view: ViewDraft,
  flags: Uint8Array,
  dropped: Uint8Array,
  capacity: number,
  context: StrategyContext,
): { entry: ViewEntry | undefined; position: number; tokens: number; replacedTokens: number } | undefined {
  // A note is a summary: only a summary's unit is read.
  let previousPosition = -1;
  for (let position = 0; position < view.entries.length && previousPosition === -1; position += 1)
    if ((flags[position]! & SUMMARY_UNIT) !== 0 && readNote(view.entries[position]!) !== undefined) previousPosition = position;
  const kept: ViewEntry[] = [];
  let firstDropped = -1;
  let lastDropped = -1;
  let isPreviousDropped = false;
  let tokens = 0;
  // A run the draft left out is among the drops (the truncation drops it whatever it keeps): counted, never read.
  let droppedMessages = elidedRunOf(view)?.historyMessages ?? 0;
  for (let index = 0; index < view.units.length; index += 1) {
    const unit = view.units[index]!;
    if (dropped[index] === 1) {
      if (firstDropped === -1) firstDropped = index;
      lastDropped = index;
      if (unit.start <= previousPosition && previousPosition < unit.end) isPreviousDropped = true;
      for (let position = unit.start; position < unit.end; position += 1)
        if ((flags[position]! & HISTORY_ENTRY) !== 0) droppedMessages += 1;
    } else
      for (let position = unit.start; position < unit.end; position += 1)
        if (position !== previousPosition) {
          const entry = view.entries[position]!;
          kept.push(entry);
          tokens += entry.tokens;
        }
  }
  if (isPreviousDropped) return undefined;
  // The note reads the newest drops only, up to `maxReadTokens`, and counts the older ones: only those newest
  // are listed for it (a long history's first view drops nearly all of it), the older history messages
  // counted here (a note is never a history message, so these are the ones the note would count).
  const maxReadTokens = NOTE_READ_BUDGETS * context.budget;
  const newest: ViewEntry[] = [];
  let readTokens = 0;
  for (let index = lastDropped; index >= firstDropped && readTokens < maxReadTokens; index -= 1) {
    if (dropped[index] !== 1) continue;
    const unit = view.units[index]!;
    for (let position = unit.end - 1; position >= unit.start && readTokens < maxReadTokens; position -= 1) {
      const entry = view.entries[position]!;
      newest.push(entry);
      if (readNote(entry) !== undefined) continue;
      if (entry.source.kind === "history") droppedMessages -= 1;
      readTokens += entry.tokens;
    }
  }
  newest.reverse();
  const previousEntry = previousPosition === -1 ? undefined : view.entries[previousPosition]!;
  const entry = createDroppedIdentifiersNote({
    dropped: newest,
    olderDroppedMessages: droppedMessages,
    previous: previousEntry === undefined ? undefined : readNote(previousEntry),
    kept,
    capacity,
    maxReadTokens,
    countMessage: context.countMessage,
  });
  return {
    entry,
    position: previousPosition !== -1 ? previousPosition : firstDropped === -1 ? -1 : view.units[firstDropped]!.start,
    tokens: tokens + (entry?.tokens ?? 0),
    replacedTokens: previousEntry?.tokens ?? 0,
  };
}

/** The entries of the units not dropped, in order, with `note` (if any) at `notePosition` in place of what stood there. */
function keptEntries(view: ViewDraft, dropped: Uint8Array, notePosition = -1, note?: ViewEntry): ViewEntry[] {
  const kept: ViewEntry[] = [];
  view.units.forEach((unit, index) => {
    if (unit.start <= notePosition && notePosition < unit.end && note !== undefined) kept.push(note);
    if (dropped[index] !== 1)
      for (let position = unit.start; position < unit.end; position += 1)
        if (position !== notePosition || note === undefined || readNote(view.entries[position]!) === undefined)
          kept.push(view.entries[position]!);
  });
  return kept;
}
