// compact({ through, instructions }): the options checked against the history, and the part of the view such a compaction may change.
import { ContextArgumentError } from "../errors.js";
import type { Message } from "../messages/message.js";
import type { ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { createViewDraft } from "../pipeline/view-draft.js";
import type { CompactOptions } from "../protocol.js";
import { findToolUnits } from "../units/find-tool-units.js";

/** What a forced compaction was asked beyond a budget. */
export interface PartialCompaction {
  /** Only history messages 0…through may change. */
  readonly through?: number;
  /** Handed to the strategies as `StrategyContext.instructions`. */
  readonly instructions?: string;
}

/**
 * `through` and `instructions` of `options`, checked against `history`, or undefined when neither is given.
 * `through` must end a tool unit: a partial compaction never separates a call from its results, and a
 * `through` that would is refused (not moved), since either neighbour changes what the caller asked for.
 */
export function readPartialCompaction(options: CompactOptions, history: readonly Message[]): PartialCompaction | undefined {
  const { through, instructions } = options;
  if (through === undefined && instructions === undefined) return undefined;
  if (instructions !== undefined && typeof instructions !== "string") {
    throw new ContextArgumentError("compact()", [
      { path: "instructions", message: `must be a string (what the summary should keep or stress); received ${typeof instructions}` },
    ]);
  }
  if (through !== undefined) checkThrough(through, history);
  return { ...(through === undefined ? {} : { through }), ...(instructions === undefined ? {} : { instructions }) };
}

function checkThrough(through: number, history: readonly Message[]): void {
  const refuse = (message: string) => new ContextArgumentError("compact()", [{ path: "through", message }]);
  if (history.length === 0) throw refuse("the history is empty: there is nothing to compact");
  if (!Number.isInteger(through) || through < 0 || through >= history.length) {
    throw refuse(`must be a history index, an integer from 0 to ${history.length - 1}; received ${String(through)}`);
  }
  const unit = findToolUnits(history).find((candidate) => candidate.start <= through && through < candidate.end);
  if (unit !== undefined && through < unit.end - 1) {
    const before = unit.start > 0 ? `pass ${unit.start - 1} to compact up to it, or ` : "pass ";
    throw refuse(
      `${through} falls inside the tool unit at ${unit.start}–${unit.end - 1} (a call and its results), which is compacted whole: ${before}${unit.end - 1} to compact it too`,
    );
  }
}

/**
 * `draft` with every entry from the first history message after `through` on marked pinned, so that no
 * strategy drops or changes it, and how to take a compacted view back: its entries before them, then
 * those entries exactly as they came in, unmarked.
 */
export function protectAfter(draft: ViewDraft, through: number): { draft: ViewDraft; restore(view: ViewDraft): ViewDraft } {
  const start = draft.entries.findIndex((entry) => entry.source.kind === "history" && entry.source.index > through);
  if (start === -1) return { draft, restore: (view) => view };
  const after = draft.entries.slice(start);
  const marked = after.map((entry): ViewEntry => Object.freeze({ ...entry, pinned: true }));
  const isMarked = new Set(marked);
  const isAfter = (entry: ViewEntry) => isMarked.has(entry) || (entry.source.kind === "history" && entry.source.index > through);
  return {
    draft: createViewDraft([...draft.entries.slice(0, start), ...marked]),
    // Strategies keep pinned entries as they are; whatever one did, what follows `through` leaves as it came in.
    restore: (view) => createViewDraft([...view.entries.filter((entry) => !isAfter(entry)), ...after]),
  };
}
