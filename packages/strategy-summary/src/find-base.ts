// The summary a new one extends: the summary entry already in the draft, or a cached checkpoint that still applies.
import type { Message } from "@ctxkit/core";
import type { ViewDraft } from "@ctxkit/core/kit";
import type { CheckpointStore } from "./checkpoint-store.js";
import type { FileLists } from "./file-operations.js";
import { digestPrefixes } from "./history-digest.js";
import type { CoveragePlan } from "./plan-coverage.js";
import { isSummaryEntry, readSummaryEntry } from "./summary-message.js";

export interface SummaryBase {
  /** The summary covers `history[0..coveredThrough]` except `verbatim`. */
  readonly coveredThrough: number;
  readonly verbatim: ReadonlySet<number>;
  readonly text: string;
  readonly tokensBefore: number;
  readonly files: FileLists;
  /** True when the draft already holds this summary (a later compaction of the same view). */
  readonly isInDraft: boolean;
}

export interface DraftIndex {
  /** Draft position of each history index the draft holds. */
  readonly positionOf: ReadonlyMap<number, number>;
}

export function isCoveredBy(base: SummaryBase | undefined, historyIndex: number): boolean {
  return base !== undefined && historyIndex <= base.coveredThrough && !base.verbatim.has(historyIndex);
}

/** The summary entry in the draft, completed from its stored checkpoint when that is still there. */
export function findBaseInDraft(
  view: ViewDraft,
  history: readonly Message[],
  store: CheckpointStore,
  index: DraftIndex,
): SummaryBase | undefined {
  let found: ReturnType<typeof readSummaryEntry>;
  for (const entry of view.entries) {
    if (!isSummaryEntry(entry)) continue;
    const summary = readSummaryEntry(entry);
    if (summary !== undefined && summary.coveredThrough < history.length && summary.coveredThrough > (found?.coveredThrough ?? -1))
      found = summary;
  }
  if (found === undefined) return undefined;
  const digest = digestPrefixes(history, [found.coveredThrough]).get(found.coveredThrough)!;
  const stored = store
    .list()
    .findLast(
      (checkpoint) => checkpoint.coveredThrough === found.coveredThrough && checkpoint.digest === digest && checkpoint.text === found.text,
    );
  // Without the checkpoint, what the draft still holds up to `coveredThrough` is what the summary left out.
  const verbatim =
    stored !== undefined
      ? new Set(stored.verbatim)
      : new Set([...index.positionOf.keys()].filter((historyIndex) => historyIndex <= found.coveredThrough));
  const { readFiles, modifiedFiles } = found;
  return {
    coveredThrough: found.coveredThrough,
    verbatim,
    text: found.text,
    tokensBefore: found.tokensBefore,
    files: { readFiles, modifiedFiles },
    isInDraft: true,
  };
}

/** Units whose history messages `base` covers, by checking each message it covers against its unit. */
function unitsCoveredBy(view: ViewDraft, plan: CoveragePlan, base: SummaryBase, index: DraftIndex): Set<number> | undefined {
  const touched = new Set<number>();
  const lastUnit = view.units.length - 1;
  for (const [historyIndex, position] of index.positionOf) {
    if (!isCoveredBy(base, historyIndex)) continue;
    const unitIndex = plan.unitOfEntry[position]!;
    // The checkpoint must not stand for anything this draft keeps verbatim, nor for its last unit.
    if (plan.kinds[unitIndex] !== "coverable" || unitIndex === lastUnit) return undefined;
    touched.add(unitIndex);
  }
  const whole = new Set<number>();
  for (const unitIndex of touched) {
    const unit = view.units[unitIndex]!;
    let isWhole = true;
    for (let position = unit.start; position < unit.end; position += 1) {
      const source = view.entries[position]!.source;
      if (source.kind === "history" && !isCoveredBy(base, source.index)) isWhole = false;
    }
    // Half a unit is only acceptable when this draft's own cut covers the other half.
    if (isWhole) whole.add(unitIndex);
    else if (!plan.coveredUnits.has(unitIndex)) return undefined;
  }
  return whole;
}

/**
 * Coverable units, other than the last, holding a message at or before `base.coveredThrough` that
 * `base` left verbatim. It left them because the draft it was made for had to keep them (the latest
 * user message then, say); this draft does not, so a later strategy such as `truncate` may drop them
 * while the summary still claims everything through `coveredThrough`. The summary must take them in.
 * The last unit is never dropped, so it may stay.
 */
export function findExposedUnits(view: ViewDraft, plan: CoveragePlan, base: SummaryBase | undefined): Set<number> {
  const exposed = new Set<number>();
  if (base === undefined) return exposed;
  const lastUnit = view.units.length - 1;
  view.entries.forEach((entry, position) => {
    const { source } = entry;
    if (source.kind !== "history" || source.index > base.coveredThrough || isCoveredBy(base, source.index)) return;
    const unitIndex = plan.unitOfEntry[position]!;
    if (plan.kinds[unitIndex] === "coverable" && unitIndex !== lastUnit) exposed.add(unitIndex);
  });
  return exposed;
}

export interface CachedBase {
  readonly base: SummaryBase;
  /** The draft's units that `base` covers whole: what reusing it alone removes. */
  readonly units: ReadonlySet<number>;
}

/**
 * The stored checkpoint covering the most of the history that still applies to this draft: its
 * history prefix is unchanged (by digest), and it stands for no message the draft must keep
 * verbatim, for no part of the last unit, and for no half unit the draft's own cut does not cover.
 */
export function findCachedBase(
  view: ViewDraft,
  plan: CoveragePlan,
  history: readonly Message[],
  store: CheckpointStore,
  index: DraftIndex,
): CachedBase | undefined {
  const candidates = store
    .list()
    .map((checkpoint, order) => ({ checkpoint, order }))
    .filter(({ checkpoint }) => checkpoint.coveredThrough < history.length)
    .sort((left, right) => right.checkpoint.coveredThrough - left.checkpoint.coveredThrough || right.order - left.order);
  if (candidates.length === 0) return undefined;
  const digests = digestPrefixes(
    history,
    candidates.map(({ checkpoint }) => checkpoint.coveredThrough),
  );
  for (const { checkpoint } of candidates) {
    if (digests.get(checkpoint.coveredThrough) !== checkpoint.digest) continue;
    const { readFiles, modifiedFiles } = checkpoint;
    const base: SummaryBase = {
      coveredThrough: checkpoint.coveredThrough,
      verbatim: new Set(checkpoint.verbatim),
      text: checkpoint.text,
      tokensBefore: checkpoint.tokensBefore,
      files: { readFiles, modifiedFiles },
      isInDraft: false,
    };
    const units = unitsCoveredBy(view, plan, base, index);
    if (units !== undefined) return { base, units };
  }
  return undefined;
}
