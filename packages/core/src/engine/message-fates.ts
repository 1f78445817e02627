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

export interface FateSources {
  /** The strategy that took each history index out of the view, this compaction or an earlier one. */
  readonly removedBy: ReadonlyMap<number, string>;
  /** The strategy that put each synthetic entry (a summary) in the view, by its message. */
  readonly addedBy: ReadonlyMap<unknown, string>;
}

/** One fate per history index, in order, for a view over `historyLength` messages. */
export function deriveMessageFates(historyLength: number, entries: readonly ViewEntry[], sources: FateSources): MessageFateRun[] {
  const inView = new Map<number, ViewEntry>();
  const summaries: { viewIndex: number; coveredThrough: number; strategy: string }[] = [];
  entries.forEach((entry, viewIndex) => {
    if (entry.source.kind === "history") inView.set(entry.source.index, entry);
    else if (isSummaryEntry(entry)) {
      const coveredThrough = readSummaryCoverage(entry.message);
      if (coveredThrough !== undefined)
        summaries.push({ viewIndex, coveredThrough, strategy: sources.addedBy.get(entry.message) ?? entry.source.origin });
    }
  });
  const runs = new RunBuilder();
  for (let index = 0; index < historyLength; index += 1) {
    const entry = inView.get(index);
    if (entry !== undefined) {
      if (entry.edit === undefined) runs.add(index, "kept");
      else runs.add(index, fateOfEdit(entry.edit), entry.edit.strategy);
      continue;
    }
    const summary = summaries.find((candidate) => candidate.coveredThrough >= index);
    if (summary !== undefined) {
      runs.add(index, "summarized", summary.strategy, { viewIndex: summary.viewIndex, coveredThrough: summary.coveredThrough });
    } else {
      runs.add(index, "dropped", sources.removedBy.get(index) ?? REPAIR_STRATEGY);
    }
  }
  return runs.runs;
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

  add(index: number, fate: MessageFate, strategy?: string, summary?: MessageFateRun["summary"]): void {
    const last = this.runs.at(-1);
    if (
      last !== undefined &&
      last.to === index - 1 &&
      last.fate === fate &&
      last.strategy === strategy &&
      last.summary?.viewIndex === summary?.viewIndex
    ) {
      // Runs are built here and handed out once built, so extending the last one in place is safe.
      (last as { to: number }).to = index;
      return;
    }
    this.runs.push({
      from: index,
      to: index,
      fate,
      ...(strategy === undefined ? {} : { strategy }),
      ...(summary === undefined ? {} : { summary }),
    });
  }
}
