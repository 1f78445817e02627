// Builds the summarized draft: the summary where the covered span began, everything verbatim kept in order.
import { createViewDraft, type ViewDraft, type ViewEntry } from "@ctxkit/core/kit";
import type { CoveragePlan } from "./plan-coverage.js";

/**
 * Drops `removedUnits` and any earlier summary, and puts `summary` at the first of them. What was
 * interleaved with the covered units and must stay (instructions, pinned messages, the latest user
 * message) follows the summary in its original relative order, as do the recent units.
 */
export function replaceCovered(view: ViewDraft, plan: CoveragePlan, removedUnits: ReadonlySet<number>, summary: ViewEntry): ViewDraft {
  const entries: ViewEntry[] = [];
  let isPlaced = false;
  view.units.forEach((unit, unitIndex) => {
    if (plan.kinds[unitIndex] === "summary" || removedUnits.has(unitIndex)) {
      if (!isPlaced) entries.push(summary);
      isPlaced = true;
      return;
    }
    for (let position = unit.start; position < unit.end; position += 1) entries.push(view.entries[position]!);
  });
  return createViewDraft(entries);
}
