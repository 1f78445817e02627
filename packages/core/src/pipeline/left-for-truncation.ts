// What a truncation after a shortening step drops whatever that step does: the step can leave it as it is.
import type { ViewDraft } from "./strategy.js";
import { DROPPABLE_UNIT, SUMMARY_UNIT, unitDropFlags } from "./view-draft.js";

export interface TruncationReach {
  /** The tokens the truncation brings the view to (or below). */
  readonly reach: number;
  readonly protectFirst: number;
  /** At most the tokens the entry at a view position has when the truncation reads it: 0 for one the step may shorten. */
  readonly floorOf: (index: number) => number;
  /**
   * Tokens of the newest drops that are read after the truncation (its note reads twice the budget's): those are
   * not left, so they are read as the step leaves them. Default 0.
   */
  readonly readWindow?: number;
}

/**
 * Whether the entry at a view position is one that a truncation to `reach` drops, whatever is shortened first:
 * counting each entry at its floor, the newer entries alone pass `reach`, and its unit may be dropped and holds
 * no summary. A truncation drops the oldest such units first and every summary after them, so it stops before
 * such a unit only once the view is within `reach`, which the newer entries alone already pass. An entry whose
 * unit may not be dropped (the current turn, a pinned message) or holds a summary is not left.
 * Shortening what is dropped anyway was most of the cost of a large compaction.
 */
export function leftForTruncation(view: ViewDraft, truncation: TruncationReach): (index: number) => boolean {
  const { reach, protectFirst, floorOf, readWindow = 0 } = truncation;
  let tokens = 0;
  let keepableFrom = 0;
  for (let index = view.entries.length - 1; index >= 0; index -= 1) {
    tokens += floorOf(index);
    if (tokens > reach) {
      keepableFrom = index + 1;
      break;
    }
  }
  if (keepableFrom === 0) return () => false;
  const flags = unitDropFlags(view, protectFirst);
  // Every unit starting before `keepableFrom` that may be dropped and holds no summary is dropped: the newest of
  // their entries, up to `readWindow` tokens at their floors (at most what they hold then), are read.
  let leftBefore = keepableFrom;
  let read = 0;
  while (read < readWindow && leftBefore > 0) {
    leftBefore -= 1;
    if ((flags[leftBefore]! & (DROPPABLE_UNIT | SUMMARY_UNIT)) === DROPPABLE_UNIT) read += floorOf(leftBefore);
  }
  return (index) => index < leftBefore && (flags[index]! & (DROPPABLE_UNIT | SUMMARY_UNIT)) === DROPPABLE_UNIT;
}
