// sliding-window: keeps at most `windowSize` messages in every view (whole units, protected entries aside), moving in steps.
import * as z from "zod/mini";
import { buildOnFirstUse } from "../build-on-first-use.js";
import { parseConfig } from "../modules/parse-config.js";
import type { Strategy, StrategyContext, StrategyResult, ViewDraft } from "../pipeline/strategy.js";
import { canDropUnit, createViewDraft } from "../pipeline/view-draft.js";

const NAME = "sliding-window";

export interface SlidingWindowOptions {
  /** The most messages a view holds, protected entries aside; a unit that does not fit whole goes. Default 40. */
  windowSize?: number;
  /**
   * How far past the limit the window moves each time it moves, in messages: it drops to
   * `windowSize - step`, then the view grows again, byte-stable for the prompt cache, until it passes
   * `windowSize`. Default a quarter of the window.
   */
  step?: number;
}

/**
 * The options checked: unknown keys and bad values are refused, defaults filled in. Built on first use: the default
 * pipeline does not run this strategy, so a process that never makes one never builds it.
 */
export const optionsSchema = buildOnFirstUse(() =>
  z
    .pipe(
      z.strictObject({
        windowSize: z._default(z.int().check(z.positive()), 40),
        step: z.optional(z.int()),
      }),
      // The default step depends on the window, so it is filled in once the window is known to be valid.
      z.transform(({ windowSize, step = Math.floor(windowSize / 4) }) => ({ windowSize, step })),
    )
    .check(
      z.superRefine(({ windowSize, step }, context) => {
        if (step < 0 || step >= windowSize) {
          context.addIssue({
            code: "custom",
            path: ["step"],
            message: `must be an integer from 0 to windowSize - 1 (${windowSize - 1}), got ${step}`,
          });
        }
      }),
    ),
);

/**
 * A window by message count, not by tokens, held on every view: the manager runs it whenever the view
 * passes `windowSize` (reason `limit`), under the threshold too, and at every compaction. Protected
 * entries (instructions, pinned, the first `protectFirst`, the current turn) stay wherever they are and
 * are not counted; the other units are kept newest first while they fit whole.
 */
export function slidingWindow(options?: SlidingWindowOptions): Strategy {
  const { windowSize, step } = parseConfig(NAME, optionsSchema(), options ?? {});

  const countedMessages = (view: ViewDraft, protectFirst: number): number =>
    view.units.reduce((sum, unit) => sum + (canDropUnit(view, unit, protectFirst) ? unit.end - unit.start : 0), 0);

  return {
    name: NAME,
    exceedsLimit: (view, context) => countedMessages(view, context.protectFirst) > windowSize,
    apply(view: ViewDraft, context: StrategyContext): StrategyResult {
      if (countedMessages(view, context.protectFirst) <= windowSize) return { view, applied: false };
      const goal = windowSize - step;
      const dropped = new Set<number>();
      let kept = 0;
      for (let index = view.units.length - 1; index >= 0; index -= 1) {
        const unit = view.units[index]!;
        if (!canDropUnit(view, unit, context.protectFirst)) continue;
        // Newest first while whole units fit; once one does not, it and every older one go, so the window has no holes.
        if (dropped.size === 0 && kept + unit.end - unit.start <= goal) kept += unit.end - unit.start;
        else dropped.add(index);
      }
      const entries = view.units.flatMap((unit, index) => (dropped.has(index) ? [] : view.entries.slice(unit.start, unit.end)));
      return { view: createViewDraft(entries), applied: true };
    },
  };
}
