// What became of each history message in a view, read from the view entries' sources and edits, kept as runs.
import { isSummaryEntry, readSummaryCoverage } from "../messages/summary-coverage.js";
import type { ContextEdit, ViewEntry } from "../pipeline/strategy.js";
import type { MessageFate, MessageFateRun } from "../protocol.js";

/** The strategy named for an orphan tool result that the view's repair leaves out: no strategy dropped it. */
export const REPAIR_STRATEGY = "(repair)";

// Strategies whose edit replaces a result with a placeholder rather than shortening it.
const CLEARING_STRATEGIES = /clear|offload|microcompact/;

/** `cleared` for an edit that stands in for the whole message, `trimmed` for one that shortened it. */
export function fateOfEdit(edit: ContextEdit): "cleared" | "trimmed" {
  return CLEARING_STRATEGIES.test(edit.strategy) ? "cleared" : "trimmed";
}

/** History messages `from` to `to` (both included), taken out of the view by `strategy`. */
export interface RemovedRun {
  readonly from: number;
  readonly to: number;
  readonly strategy: string;
}

export interface FateSources {
  /**
   * The strategy that took each history message out of the view, this compaction or an earlier one: runs in
   * index order, none overlapping. Runs rather than one entry per index: a first view of a long session
   * drops nearly all of it, in one run.
   */
  readonly removed: readonly RemovedRun[];
  /** The strategy that put each synthetic entry (a summary) in the view, by its message. */
  readonly addedBy: ReadonlyMap<unknown, string>;
}

interface CoveringSummary {
  readonly viewIndex: number;
  readonly coveredThrough: number;
  readonly strategy: string;
}

/**
 * One fate per history index, in order, for a view over `historyLength` messages. The work follows the view
 * and the runs, not the history: the history indexes the view leaves out are taken a range at a time.
 */
export function deriveMessageFates(historyLength: number, entries: readonly ViewEntry[], sources: FateSources): MessageFateRun[] {
  const inView = historyEntriesInOrder(entries);
  const summaries: CoveringSummary[] = [];
  entries.forEach((entry, viewIndex) => {
    if (entry.source.kind === "history" || !isSummaryEntry(entry)) return;
    const coveredThrough = readSummaryCoverage(entry.message);
    if (coveredThrough !== undefined)
      summaries.push({ viewIndex, coveredThrough, strategy: sources.addedBy.get(entry.message) ?? entry.source.origin });
  });
  const runs = new RunBuilder();
  const removed = new RemovedCursor(sources.removed);
  let next = 0;
  for (const [index, entry] of inView) {
    if (index >= historyLength) break;
    if (index > next) addAbsent(runs, next, index - 1, summaries, removed);
    if (entry.edit === undefined) runs.add(index, index, "kept");
    else runs.add(index, index, fateOfEdit(entry.edit), entry.edit.strategy);
    next = index + 1;
  }
  if (next < historyLength) addAbsent(runs, next, historyLength - 1, summaries, removed);
  return runs.runs;
}

/**
 * The view's history entries by index, ascending, one per index (the last, should a view hold one twice).
 * A view holds them in history order, so that order is used as it stands when it is one.
 */
function historyEntriesInOrder(entries: readonly ViewEntry[]): [number, ViewEntry][] {
  const pairs: [number, ViewEntry][] = [];
  let isAscending = true;
  for (const entry of entries) {
    if (entry.source.kind !== "history") continue;
    const { index } = entry.source;
    if (pairs.length > 0 && index <= pairs[pairs.length - 1]![0]) isAscending = false;
    pairs.push([index, entry]);
  }
  if (isAscending) return pairs;
  const byIndex = new Map<number, ViewEntry>(pairs);
  return [...byIndex].sort((first, second) => first[0] - second[0]);
}

/**
 * Fates of history indexes `from` to `to`, none in the view: summarized by the first summary of the view
 * (in view order) that covers an index, else dropped by the strategy that removed it, else by the repair.
 */
function addAbsent(runs: RunBuilder, from: number, to: number, summaries: readonly CoveringSummary[], removed: RemovedCursor): void {
  let index = from;
  while (index <= to) {
    // The summaries covering an index only thin out as it grows, so the first of them stands until its own range ends.
    const summary = summaries.find((candidate) => candidate.coveredThrough >= index);
    if (summary === undefined) break;
    const end = Math.min(to, summary.coveredThrough);
    runs.add(index, end, "summarized", summary.strategy, { viewIndex: summary.viewIndex, coveredThrough: summary.coveredThrough });
    index = end + 1;
  }
  while (index <= to) {
    const run = removed.at(index);
    if (run === undefined || run.from > index) {
      // Nothing removed it: an orphan result the repair leaves out, up to where the next removal starts.
      const end = run === undefined ? to : Math.min(to, run.from - 1);
      runs.add(index, end, "dropped", REPAIR_STRATEGY);
      index = end + 1;
      continue;
    }
    const end = Math.min(to, run.to);
    runs.add(index, end, "dropped", run.strategy);
    index = end + 1;
  }
}

/** Walks removal runs forward: asked about ascending indexes, it gives the run holding one or the next after it. */
class RemovedCursor {
  private position = 0;

  constructor(private readonly removed: readonly RemovedRun[]) {}

  at(index: number): RemovedRun | undefined {
    while (this.position < this.removed.length && this.removed[this.position]!.to < index) this.position += 1;
    return this.removed[this.position];
  }
}

/** How many history messages each run set gives each fate. */
export function countFates(runs: readonly MessageFateRun[]): Record<MessageFate, number> {
  const counts: Record<MessageFate, number> = { kept: 0, cleared: 0, trimmed: 0, summarized: 0, dropped: 0 };
  for (const run of runs) counts[run.fate] += run.to - run.from + 1;
  return counts;
}

/** Merges consecutive indexes with the same fate, strategy and summary into one run. */
class RunBuilder {
  readonly runs: MessageFateRun[] = [];

  /** Indexes `from` to `to`, all with the same fate. */
  add(from: number, to: number, fate: MessageFate, strategy?: string, summary?: MessageFateRun["summary"]): void {
    const last = this.runs.at(-1);
    if (
      last !== undefined &&
      last.to === from - 1 &&
      last.fate === fate &&
      last.strategy === strategy &&
      last.summary?.viewIndex === summary?.viewIndex
    ) {
      // Runs are built here and handed out once built, so extending the last one in place is safe.
      (last as { to: number }).to = to;
      return;
    }
    this.runs.push({
      from,
      to,
      fate,
      ...(strategy === undefined ? {} : { strategy }),
      ...(summary === undefined ? {} : { summary }),
    });
  }
}
