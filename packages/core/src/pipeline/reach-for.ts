// How far a strategy that shortens or clears goes: to the target, or all the way when the caller forced the compaction.
import type { StrategyContext } from "./strategy.js";

/** The size at which a shortening strategy stops: the target, or 0 for a forced compaction (`compact()`). */
export function reachFor(context: Pick<StrategyContext, "target" | "forced">): number {
  return context.forced === true ? 0 : context.target;
}
