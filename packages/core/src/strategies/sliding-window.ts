// sliding-window: keeps the units that hold the last `windowSize` messages of the view, and drops older ones it may drop.
import { ContextConfigError } from "../errors.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft } from "../pipeline/strategy.js";
import { canDropUnit, createViewDraft } from "../pipeline/view-draft.js";

const NAME = "sliding-window";

export interface SlidingWindowOptions {
  /** How many of the newest messages stay; a unit that holds any of them stays whole. Default 40. */
  windowSize?: number;
}

/**
 * A window by message count, not by tokens: every droppable unit wholly before the window goes, even
 * when fewer would reach the target, so the view is the same whatever the budget. Protected entries
 * (instructions, pinned, the first `protectFirst`, the current turn) stay wherever they are. Like every
 * strategy it runs at a compaction, so between compactions the view may grow past the window.
 */
export function slidingWindow(options: SlidingWindowOptions = {}): Strategy {
  const { windowSize = 40 } = options;
  if (!Number.isInteger(windowSize) || windowSize < 1) {
    throw new ContextConfigError(NAME, [{ path: "windowSize", message: `must be a positive integer, got ${windowSize}` }]);
  }

  return {
    name: NAME,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      const windowStart = view.entries.length - windowSize;
      const dropped = new Set<number>();
      view.units.forEach((unit, index) => {
        // `end <= windowStart`: no message of the unit is inside the window.
        if (unit.end <= windowStart && canDropUnit(view, unit, context.protectFirst)) dropped.add(index);
      });
      if (dropped.size === 0) return { view, applied: false };
      const kept = view.units.flatMap((unit, index) => (dropped.has(index) ? [] : view.entries.slice(unit.start, unit.end)));
      return { view: createViewDraft(kept), applied: true };
    },
  };
}
