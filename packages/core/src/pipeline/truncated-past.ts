// Leaving the truncated past out of a compaction's draft: the first compaction of a long history drafts what its
// strategies read, not the many old units its truncation drops whatever the steps before it do.
import { hasToolCalls, isInstruction, isPinned } from "../messages/message.js";
import { isSummaryEntry } from "../messages/summary-coverage.js";
import type { Strategy, ViewDraft, ViewEntry } from "./strategy.js";
import { createElidedDraft, createViewDraft, elidedRunOf } from "./view-draft.js";

/**
 * What a built-in strategy declares so that a compaction may leave the far past out of its draft.
 * - `shortens`: it reads and changes nothing that a truncation to the target drops whatever is shortened first (as
 *   `leftForTruncation` decides), but for the newest `readBudgets` budgets' worth of it, counted at `floorOf`; and it
 *   never shortens an entry below `floorOf(entry)`.
 * - `truncates`: it is that truncation. It keeps at least the first `protectFirst` history messages and reads the
 *   newest `readBudgets` budgets' worth of what it drops (its note); what it drops of a left-out run it only counts.
 */
export type TruncatedPastRole =
  | { readonly kind: "shortens"; readonly floorOf: (entry: ViewEntry) => number; readonly readBudgets: number }
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
  entries: readonly ViewEntry[],
  strategies: readonly Strategy[],
  plan: TruncationPlan,
): ViewDraft | undefined {
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
  const shortened: { readonly floorOf: (entry: ViewEntry) => number; readonly from: number }[] = [];
  let horizon = entries.length;
  for (const step of steps) {
    const floorOf = (index: number): number => {
      const entry = entries[index]!;
      let floor = step.kind === "shortens" ? step.floorOf(entry) : entry.tokens;
      for (const earlier of shortened) if (index >= earlier.from || plain[index] === 0) floor = Math.min(floor, earlier.floorOf(entry));
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
  for (let index = 0; index < start; index += 1) if (plain[index] === 0 && entries[index]!.message.role === "tool") return undefined;
  const left = entries.slice(start, horizon);
  let tokens = 0;
  let historyMessages = 0;
  for (const entry of left) {
    tokens += entry.tokens;
    if (entry.source.kind === "history") historyMessages += 1;
  }
  const kept = entries.slice(0, start).concat(entries.slice(horizon));
  return createElidedDraft(kept, { at: start, entries: left, tokens, historyMessages });
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
function unitStart(entries: readonly ViewEntry[], index: number): number {
  let start = Math.min(index, entries.length - 1);
  while (start > 0 && entries[start]!.message.role === "tool") start -= 1;
  return Math.max(start, 0);
}

/**
 * 1 at each entry whose unit a truncation may drop and that holds no summary (`unitDropFlags`' plain units), read
 * from the end without a draft; `undefined` when a unit is not where a draft would find it (results after a
 * message without calls), so nothing is left out.
 */
function plainUnitFlags(entries: readonly ViewEntry[], protectFirst: number): Uint8Array | undefined {
  const flags = new Uint8Array(entries.length);
  let turnStart = entries.length - 1;
  while (turnStart >= 0 && (entries[turnStart]!.message.role !== "user" || entries[turnStart]!.source.kind !== "history")) turnStart -= 1;
  if (turnStart < 0) return undefined;
  let end = entries.length;
  for (let start = entries.length - 1; start >= 0; start -= 1) {
    const opener = entries[start]!.message;
    if (opener.role === "tool" && start > 0) continue;
    if (end - start > 1 && !hasToolCalls(opener)) return undefined;
    let isPlain = end <= turnStart;
    for (let index = start; index < end && isPlain; index += 1) {
      const entry = entries[index]!;
      const { message, source } = entry;
      if (isInstruction(message) || isPinned(message) || entry.pinned === true || isSummaryEntry(entry)) isPlain = false;
      else if (source.kind === "history" && source.index < protectFirst) isPlain = false;
    }
    if (isPlain) flags.fill(1, start, end);
    end = start;
  }
  return flags;
}
