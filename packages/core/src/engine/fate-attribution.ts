// Which strategy took each history message out of the view, and which put each synthetic entry in: what a view's entries do not say.
import type { ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { runsOfIndexes } from "../pipeline/truncated-past.js";
import { elidedRunOf } from "../pipeline/view-draft.js";
import type { FateSources, RemovedRun } from "./message-fates.js";

/** Kept across compactions of one view, since a message dropped by an earlier one is still absent from the next. */
export class FateAttribution implements FateSources {
  /** Runs in index order, none overlapping; a later removal of an index (after the view grew back) replaces an earlier one. */
  removed: readonly RemovedRun[] = [];
  readonly addedBy = new Map<unknown, string>();

  /** What `strategy` changed from `before` to `after` (the pipeline's `onApplied`). */
  note(strategy: string, before: ViewDraft, after: ViewDraft): void {
    // A run the draft left out is gone once the draft after it holds it no longer: the truncation dropped it whole.
    const run = elidedRunOf(before);
    const dropsRun = run !== undefined && elidedRunOf(after) === undefined;
    // Most strategies only shorten entries in place: then nothing left or came in, and nothing is looked up.
    if (!dropsRun && hasSameSources(before.entries, after.entries)) return;
    let removed = removedRuns(before.entries, after.entries, strategy);
    if (dropsRun)
      removed = mergeRuns(
        removed,
        run.historyRuns.map(({ from, to }) => ({ from, to, strategy })),
      );
    if (removed.length > 0) this.removed = overlay(this.removed, removed);
    // What the run held is gone from the view after too: only the draft's own entries can come back.
    const present = new Set<unknown>();
    for (const entry of before.entries) if (entry.source.kind === "synthetic") present.add(entry.message);
    for (const entry of after.entries) {
      if (entry.source.kind === "synthetic" && !present.has(entry.message)) this.addedBy.set(entry.message, strategy);
    }
  }

  /** Forgets synthetic entries no longer in the view, so the map does not grow with every summary. */
  keepOnly(entries: readonly ViewEntry[]): void {
    const present = new Set<unknown>(entries.map((entry) => entry.message));
    for (const message of this.addedBy.keys()) if (!present.has(message)) this.addedBy.delete(message);
  }

  /** A copy a preview can change without touching this one. */
  clone(): FateAttribution {
    const copy = new FateAttribution();
    copy.removed = this.removed;
    for (const [message, strategy] of this.addedBy) copy.addedBy.set(message, strategy);
    return copy;
  }

  reset(): void {
    this.removed = [];
    this.addedBy.clear();
  }
}

function hasSameSources(before: readonly ViewEntry[], after: readonly ViewEntry[]): boolean {
  if (before.length !== after.length) return false;
  for (let position = 0; position < before.length; position += 1) {
    const first = before[position]!;
    const second = after[position]!;
    if (first.source === second.source) continue;
    if (first.source.kind !== "history" || second.source.kind !== "history" || first.source.index !== second.source.index) return false;
  }
  return true;
}

/**
 * The history indexes of `before` that `after` no longer holds, as runs. Both hold their history entries in
 * history order, so one walk over the two does it, without a set of every kept index or a list of every
 * removed one; entries out of order (a strategy that broke invariant 2) are looked up in a set instead.
 */
function removedRuns(before: readonly ViewEntry[], after: readonly ViewEntry[], strategy: string): RemovedRun[] {
  const kept: number[] = [];
  for (const entry of after) if (entry.source.kind === "history") kept.push(entry.source.index);
  if (isAscending(kept)) {
    const runs: RemovedRun[] = [];
    let position = 0;
    let last = -1;
    let from = -1;
    let to = -1;
    for (const entry of before) {
      if (entry.source.kind !== "history") continue;
      const { index } = entry.source;
      if (index <= last) return runsOf(removedBySet(before, kept), strategy);
      last = index;
      while (position < kept.length && kept[position]! < index) position += 1;
      if (kept[position] === index) continue;
      if (index === to + 1 && from !== -1) to = index;
      else {
        if (from !== -1) runs.push({ from, to, strategy });
        from = index;
        to = index;
      }
    }
    if (from !== -1) runs.push({ from, to, strategy });
    return runs;
  }
  return runsOf(removedBySet(before, kept), strategy);
}

/** The history indexes of `before` not in `kept`, ascending and distinct, whatever order either is in. */
function removedBySet(before: readonly ViewEntry[], kept: readonly number[]): number[] {
  const keptSet = new Set(kept);
  const removed = new Set<number>();
  for (const entry of before) if (entry.source.kind === "history" && !keptSet.has(entry.source.index)) removed.add(entry.source.index);
  return [...removed].sort((first, second) => first - second);
}

function isAscending(indexes: readonly number[]): boolean {
  for (let position = 1; position < indexes.length; position += 1) if (indexes[position]! <= indexes[position - 1]!) return false;
  return true;
}

/** Ascending distinct indexes as runs of consecutive ones, each removed by `strategy`. */
function runsOf(indexes: readonly number[], strategy: string): RemovedRun[] {
  return runsOfIndexes(indexes).map(({ from, to }) => ({ from, to, strategy }));
}

/** Two lists of runs in index order, over indexes neither shares, as one in index order. */
function mergeRuns(first: readonly RemovedRun[], second: readonly RemovedRun[]): RemovedRun[] {
  const merged: RemovedRun[] = [];
  let position = 0;
  for (const run of first) {
    while (position < second.length && second[position]!.from < run.from) merged.push(second[position++]!);
    merged.push(run);
  }
  while (position < second.length) merged.push(second[position++]!);
  return merged;
}

/** `below` with `above` laid over it: where they overlap, `above` wins. Both in index order, none overlapping; so is the result. */
function overlay(below: readonly RemovedRun[], above: readonly RemovedRun[]): RemovedRun[] {
  const result: RemovedRun[] = [];
  const push = (run: RemovedRun) => {
    const last = result[result.length - 1];
    // Touching runs of one strategy become one, so a history dropped in several passes stays a few runs.
    if (last !== undefined && last.to + 1 === run.from && last.strategy === run.strategy)
      result[result.length - 1] = { ...last, to: run.to };
    else result.push(run);
  };
  let position = 0;
  // The run of `below` at `position`, less what a run of `above` already covered of its start.
  let pending = below[0];
  const next = () => {
    position += 1;
    pending = below[position];
  };
  for (const run of above) {
    while (pending !== undefined && pending.to < run.from) {
      push(pending);
      next();
    }
    if (pending !== undefined && pending.from < run.from) push({ ...pending, to: run.from - 1 });
    push(run);
    while (pending !== undefined && pending.to <= run.to) next();
    if (pending !== undefined && pending.from <= run.to) pending = { ...pending, from: run.to + 1 };
  }
  while (pending !== undefined) {
    push(pending);
    next();
  }
  return result;
}
