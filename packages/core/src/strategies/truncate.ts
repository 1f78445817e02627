// truncate: drops the oldest whole units that invariant 5 and `protectFirst` allow to be dropped.
import { ContextConfigError } from "../errors.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { canDropUnit, createViewDraft } from "../pipeline/view-draft.js";

const NAME = "truncate";

export interface TruncateOptions {
  /**
   * Keeps this many leading history messages on top of the manager's `protectFirst` (the larger of the
   * two wins), e.g. to keep a task statement that is not pinned. Default 0.
   */
  protectFirst?: number;
}

export function truncate(options: TruncateOptions = {}): Strategy {
  const { protectFirst: ownProtectFirst = 0 } = options;
  if (!Number.isInteger(ownProtectFirst) || ownProtectFirst < 0) {
    throw new ContextConfigError(NAME, [{ path: "protectFirst", message: `must be a non-negative integer, got ${ownProtectFirst}` }]);
  }

  return {
    name: NAME,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      const protectFirst = Math.max(context.protectFirst, ownProtectFirst);
      const kept: ViewEntry[] = [];
      let tokens = view.tokens;
      let isDropping = true;
      // Oldest first: a protected unit is stepped over rather than ending the walk, so a pinned or
      // system message in the middle does not shield everything after it.
      for (const unit of view.units) {
        const entries = view.entries.slice(unit.start, unit.end);
        isDropping &&= tokens > context.target;
        if (isDropping && canDropUnit(view, unit, protectFirst)) {
          for (const entry of entries) tokens -= entry.tokens;
        } else {
          kept.push(...entries);
        }
      }
      if (kept.length === view.entries.length) return { view, applied: false };
      return { view: createViewDraft(kept), applied: true };
    },
  };
}
