// Leaving the truncated past out of a compaction's draft: a compaction of a long history drafts what its strategies
// read, not the many old units its truncation drops whatever the steps before it do.
import { hasToolCalls, isInstruction, isPinned, type Message } from "../messages/message.js";
import { isSummaryEntry } from "../messages/summary-coverage.js";
import type { Strategy, ViewDraft, ViewEntry } from "./strategy.js";
import { createElidedDraft, createViewDraft, type ElidedRun, elidedRunOf } from "./view-draft.js";

/**
 * What a built-in strategy declares so that a compaction may leave the far past out of its draft.
 * - `shortens`: it reads and changes nothing that a truncation to the target drops whatever is shortened first (as
 *   `leftForTruncation` decides), but for the newest `readBudgets` budgets' worth of it, counted at `floorOf`; and it
 *   never shortens an entry below `floorOf(message, tokens)`, its message and tokens as the step finds them.
 * - `truncates`: it is that truncation. It keeps at least the first `protectFirst` history messages and reads the
 *   newest `readBudgets` budgets' worth of what it drops (its note); what it drops of a left-out run it only counts.
 */
export type TruncatedPastRole =
  | { readonly kind: "shortens"; readonly floorOf: (message: Message, tokens: number) => number; readonly readBudgets: number }
  | { readonly kind: "truncates"; readonly protectFirst: number; readonly readBudgets: number };

const roles = new WeakMap<Strategy, TruncatedPastRole>();

/** Records what `strategy` reads of the truncated past; returns it. */
export function declareTruncatedPastRole<S extends Strategy>(strategy: S, role: TruncatedPastRole): S {
  roles.set(strategy, role);
  return strategy;
}

export function truncatedPastRoleOf(strategy: Strategy): TruncatedPastRole | undefined {
  return roles.get(strategy);
}

/** A bit of `entryKindOf`: a tool result, which belongs to the unit of the call before it. */
export const TOOL_RESULT = 1;
/** A bit of `entryKindOf`: an assistant message with tool calls, which opens a unit. */
export const OPENS_CALLS = 2;
/** A bit of `entryKindOf`: an instruction or a pinned message, which no step drops. */
export const FIXED = 4;

/** What a draft reads of a history message for its unit and whether it may be dropped, `pinned` by the manager or not. */
export function entryKindOf(message: Message, pinned: boolean): number {
  const unit = message.role === "tool" ? TOOL_RESULT : hasToolCalls(message) ? OPENS_CALLS : 0;
  return unit | (pinned || isInstruction(message) || isPinned(message) ? FIXED : 0);
}

/**
 * The entries a draft is made from, read one at a time: a view's, or a history counted and not made into entries yet.
 * `kindAt` is given only for such a history: each entry is then the history message at its own index, and what a
 * draft needs of it (`entryKindOf`) is read there rather than from the message.
 */
export interface DraftEntries {
  readonly length: number;
  at(position: number): ViewEntry;
  /** The entry's message and tokens, without making the entry. */
  messageAt(position: number): Message;
  tokensAt(position: number): number;
  kindAt?(position: number): number;
}

function draftEntriesOf(entries: readonly ViewEntry[]): DraftEntries {
  return {
    length: entries.length,
    at: (position) => entries[position]!,
    messageAt: (position) => entries[position]!.message,
    tokensAt: (position) => entries[position]!.tokens,
  };
}

/** The entries `draft` stands for: its own, with the run it left out back in place. */
function fullEntries(draft: ViewDraft): readonly ViewEntry[] {
  const run = elidedRunOf(draft);
  if (run === undefined) return draft.entries;
  return draft.entries.slice(0, run.at).concat(run.entries, draft.entries.slice(run.at));
}

/** `draft` with the run it left out back in place: what a strategy that declares no role is handed. */
export function withTruncatedPast(draft: ViewDraft): ViewDraft {
  return elidedRunOf(draft) === undefined ? draft : createViewDraft(fullEntries(draft));
}

export interface TruncationPlan {
  /** The pipeline's target: where its truncation brings the view. */
  readonly target: number;
  readonly budget: number;
  /** The manager's `protectFirst`. */
  readonly protectFirst: number;
}

/**
 * The draft of `entries` without the oldest run of units that `strategies` would neither read nor change and whose
 * truncation drops them whatever comes first: the strategies up to the first that `truncates` each declare a role,
 * so each step's reach back is bounded from the entries' floors. `undefined` when there is no such run. The draft's
 * tokens count the run's; a strategy without a role, or what follows the pipeline, gets `withTruncatedPast` of it.
 */
export function draftWithoutTruncatedPast(
  given: readonly ViewEntry[] | DraftEntries,
  strategies: readonly Strategy[],
  plan: TruncationPlan,
): ViewDraft | undefined {
  const entries = Array.isArray(given) ? draftEntriesOf(given as readonly ViewEntry[]) : (given as DraftEntries);
  const steps: TruncatedPastRole[] = [];
  for (const strategy of strategies) {
    const role = roles.get(strategy);
    if (role === undefined) return undefined;
    steps.push(role);
    if (role.kind === "truncates") break;
  }
  const truncation = steps.at(-1);
  if (truncation?.kind !== "truncates") return undefined;
  const plain = plainUnitFlags(entries, Math.max(plan.protectFirst, truncation.protectFirst));
  if (plain === undefined) return undefined;
  // Each step reaches back from the end to where its walk stops (`leftForTruncation`'s, over the entries as the
  // step finds them): no lower than the floors the earlier steps leave, on what those may have changed.
  const shortened: { readonly floorOf: (message: Message, tokens: number) => number; readonly from: number }[] = [];
  let horizon = entries.length;
  for (const step of steps) {
    const floorOf = (index: number): number => {
      const message = entries.messageAt(index);
      const tokens = entries.tokensAt(index);
      let floor = step.kind === "shortens" ? step.floorOf(message, tokens) : tokens;
      for (const earlier of shortened)
        if (index >= earlier.from || plain[index] === 0) floor = Math.min(floor, earlier.floorOf(message, tokens));
      return floor;
    };
    const from = reachedFrom(entries.length, floorOf, plain, plan.target, step.readBudgets * plan.budget);
    horizon = Math.min(horizon, from);
    if (step.kind === "shortens") shortened.push({ floorOf: step.floorOf, from });
  }
  // The run ends where a unit starts, one unit short of the horizon (a step's walk reads the entry it stops at), and
  // just before a unit the truncation drops: the note it leaves then stands where the oldest drop stood.
  horizon = unitStart(entries, horizon);
  if (horizon > 0) horizon = unitStart(entries, horizon - 1);
  while (horizon > 0 && plain[horizon] !== 1) horizon = unitStart(entries, horizon - 1);
  let start = horizon;
  while (start > 0 && plain[start - 1] === 1) start -= 1;
  if (start === horizon) return undefined;
  // A result before the run that a step may clear (one the truncation keeps: the steps leave the plain ones) is
  // cleared as the newer results say (those it keeps recent, those that show its names), the run's among them.
  for (let index = 0; index < start; index += 1) if (plain[index] === 0 && isToolResult(entries, index)) return undefined;
  const kept: ViewEntry[] = [];
  for (let index = 0; index < start; index += 1) kept.push(entries.at(index));
  for (let index = horizon; index < entries.length; index += 1) kept.push(entries.at(index));
  return createElidedDraft(kept, leftOut(entries, start, horizon));
}

/** The run of `entries` from `start` to `end`: its entries are made only when read (a strategy with no role, a fallback). */
function leftOut(entries: DraftEntries, start: number, end: number): ElidedRun {
  let tokens = 0;
  for (let index = start; index < end; index += 1) tokens += entries.tokensAt(index);
  let made: ViewEntry[] | undefined;
  const make = (): ViewEntry[] => {
    made ??= Array.from({ length: end - start }, (_, offset) => entries.at(start + offset));
    return made;
  };
  const length = end - start;
  if (entries.kindAt !== undefined)
    return {
      at: start,
      length,
      tokens,
      historyMessages: length,
      historyRuns: [{ from: start, to: end - 1 }],
      get entries() {
        return make();
      },
    };
  const indexes: number[] = [];
  for (const entry of make()) if (entry.source.kind === "history") indexes.push(entry.source.index);
  return { at: start, length, tokens, historyMessages: indexes.length, historyRuns: runsOfIndexes(indexes), entries: make() };
}

/** Ascending distinct indexes as runs of consecutive ones. */
export function runsOfIndexes(indexes: readonly number[]): { from: number; to: number }[] {
  const runs: { from: number; to: number }[] = [];
  for (const index of indexes) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.to + 1 === index) last.to = index;
    else runs.push({ from: index, to: index });
  }
  return runs;
}

function isToolResult(entries: DraftEntries, index: number): boolean {
  return entries.kindAt === undefined ? entries.messageAt(index).role === "tool" : (entries.kindAt(index) & TOOL_RESULT) !== 0;
}

/**
 * Where a step stops reading back: the newest entries pass `reach` at their floors from `keepableFrom` on, and it reads
 * `window` tokens of the plain entries before that. 0 when nothing is left for the truncation.
 */
function reachedFrom(length: number, floorOf: (index: number) => number, plain: Uint8Array, reach: number, window: number): number {
  let tokens = 0;
  let keepableFrom = 0;
  for (let index = length - 1; index >= 0; index -= 1) {
    tokens += floorOf(index);
    if (tokens > reach) {
      keepableFrom = index + 1;
      break;
    }
  }
  let from = keepableFrom;
  let read = 0;
  while (read < window && from > 0) {
    from -= 1;
    if (plain[from] === 1) read += floorOf(from);
  }
  return from;
}

/** Where the unit holding the entry at `index` starts: its results follow the call that opens it. */
function unitStart(entries: DraftEntries, index: number): number {
  let start = Math.min(index, entries.length - 1);
  while (start > 0 && isToolResult(entries, start)) start -= 1;
  return Math.max(start, 0);
}

/**
 * 1 at each entry whose unit a truncation may drop and that holds no summary (`unitDropFlags`' plain units), read
 * from the end without a draft; `undefined` when a unit is not where a draft would find it (results after a
 * message without calls), so nothing is left out.
 */
function plainUnitFlags(entries: DraftEntries, protectFirst: number): Uint8Array | undefined {
  const { length, kindAt } = entries;
  const flags = new Uint8Array(length);
  let turnStart = length - 1;
  while (turnStart >= 0 && (entries.at(turnStart).message.role !== "user" || entries.at(turnStart).source.kind !== "history"))
    turnStart -= 1;
  if (turnStart < 0) return undefined;
  // Each entry's kind, from the history's own record when there is one rather than from its message.
  const kindOf =
    kindAt ??
    ((position: number) => {
      const entry = entries.at(position);
      return entryKindOf(entry.message, entry.pinned === true);
    });
  let end = length;
  for (let start = length - 1; start >= 0; start -= 1) {
    const kind = kindOf(start);
    if ((kind & TOOL_RESULT) !== 0 && start > 0) continue;
    if (end - start > 1 && (kind & OPENS_CALLS) === 0) return undefined;
    let isPlain = end <= turnStart;
    for (let index = start; index < end && isPlain; index += 1) {
      if ((kindOf(index) & FIXED) !== 0) isPlain = false;
      else if (kindAt !== undefined) isPlain = index >= protectFirst;
      else {
        const entry = entries.at(index);
        if (isSummaryEntry(entry) || (entry.source.kind === "history" && entry.source.index < protectFirst)) isPlain = false;
      }
    }
    if (isPlain) flags.fill(1, start, end);
    end = start;
  }
  return flags;
}
