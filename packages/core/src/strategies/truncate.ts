// truncate: drops the oldest whole units that invariant 5 and `protectFirst` allow to be dropped.
import * as z from "zod/mini";
import { isSummaryEntry } from "../messages/summary-coverage.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { canDropUnit, createViewDraft } from "../pipeline/view-draft.js";
import { parseConfig } from "../modules/parse-config.js";

const NAME = "truncate";

export interface TruncateOptions {
  /**
   * Keeps this many leading history messages on top of the manager's `protectFirst` (the larger of the
   * two wins), e.g. to keep a task statement that is not pinned. Default 0.
   */
  protectFirst?: number;
}

/** The options checked: unknown keys and bad values are refused, defaults filled in. */
export const optionsSchema = z.strictObject({
  protectFirst: z._default(z.number().check(z.int(), z.nonnegative()), 0),
});

export function truncate(options?: TruncateOptions): Strategy {
  const { protectFirst: ownProtectFirst } = parseConfig(NAME, optionsSchema, options ?? {});

  return {
    name: NAME,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      const protectFirst = Math.max(context.protectFirst, ownProtectFirst);
      const droppable = view.units.map((unit) => canDropUnit(view, unit, protectFirst));
      const isSummary = view.units.map((unit) => {
        for (let position = unit.start; position < unit.end; position += 1) if (isSummaryEntry(view.entries[position]!)) return true;
        return false;
      });
      const dropped = new Set<number>();
      let tokens = view.tokens;
      // Oldest first, and a summary only when nothing else is left to drop: it stands for many units.
      // A protected unit is stepped over rather than ending the walk, so a pinned or system message in
      // the middle does not shield everything after it.
      for (const isSummaryPass of [false, true]) {
        view.units.forEach((unit, index) => {
          if (tokens <= context.target || !droppable[index] || isSummary[index] !== isSummaryPass) return;
          dropped.add(index);
          for (let position = unit.start; position < unit.end; position += 1) tokens -= view.entries[position]!.tokens;
        });
      }
      if (dropped.size === 0) return { view, applied: false };
      const kept: ViewEntry[] = [];
      view.units.forEach((unit, index) => {
        if (!dropped.has(index)) for (let position = unit.start; position < unit.end; position += 1) kept.push(view.entries[position]!);
      });
      return { view: createViewDraft(kept), applied: true };
    },
  };
}
