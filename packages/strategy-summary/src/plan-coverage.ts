// Where the summary cuts a draft: which units it may cover, and which stay verbatim after it.
import { isProtectedEntry, type ViewDraft, type ViewEntry } from "@ctxkit/core/kit";
import { isSummaryEntry } from "./summary-message.js";

/**
 * `summary`: an earlier summary entry, which a new summary replaces. `coverable`: a unit the summary
 * may stand for. `verbatim`: a unit holding anything that must stay as it is (an instruction, a
 * pinned message, the latest user message, the first `protectFirst` messages, another strategy's notice).
 */
export type UnitKind = "summary" | "coverable" | "verbatim";

export interface CoveragePlan {
  readonly kinds: readonly UnitKind[];
  /** The unit of each entry, by position in the draft. */
  readonly unitOfEntry: readonly number[];
  /** Coverable units before the verbatim suffix: what a summary of this draft stands for. */
  readonly coveredUnits: ReadonlySet<number>;
  /** The highest history index in a covered unit, or -1. */
  readonly coveredThrough: number;
  /** Tokens of the covered units in the draft. */
  readonly coveredTokens: number;
}

export interface CoverageRules {
  readonly protectFirst: number;
  readonly keepRecentTokens: number;
  readonly summarizeCurrentTurn: boolean;
  /** The pipeline's target for this draft. */
  readonly target: number;
  /** Room to leave for the summary itself. */
  readonly summaryTokens: number;
}

function isCoverableEntry(view: ViewDraft, position: number, rules: CoverageRules): boolean {
  const entry = view.entries[position]!;
  const { protectFirst } = rules;
  if (!rules.summarizeCurrentTurn && position >= view.currentTurnStart) return false;
  if (entry.source.kind === "synthetic") return entry.source.origin === "repair";
  if (entry.source.index < protectFirst) return false;
  return isProtectedEntry(view, position, protectFirst).canAlter;
}

function unitTokens(entries: readonly ViewEntry[], start: number, end: number): number {
  let tokens = 0;
  for (let position = start; position < end; position += 1) tokens += entries[position]!.tokens;
  return tokens;
}

/**
 * Keeps the last unit verbatim (the model has not seen it yet), then as many newer coverable units as
 * fit `keepRecentTokens`, and fewer when more would leave the view above the target with the summary
 * in it: summarizing a unit beats letting `truncate` drop units, the summary first among them. Every
 * coverable unit before them is covered. The cut falls between units, never inside one, and may fall
 * between the units of one long tool-calling turn.
 */
export function planCoverage(view: ViewDraft, rules: CoverageRules): CoveragePlan {
  const unitOfEntry: number[] = [];
  const kinds = view.units.map((unit, unitIndex): UnitKind => {
    let kind: UnitKind = "coverable";
    for (let position = unit.start; position < unit.end; position += 1) {
      unitOfEntry[position] = unitIndex;
      if (isSummaryEntry(view.entries[position]!)) kind = "summary";
      else if (kind === "coverable" && !isCoverableEntry(view, position, rules)) kind = "verbatim";
    }
    return kind;
  });
  let verbatimTokens = 0;
  view.units.forEach(
    (unit, unitIndex) => kinds[unitIndex] === "verbatim" && (verbatimTokens += unitTokens(view.entries, unit.start, unit.end)),
  );
  const keepTokens = Math.max(0, Math.min(rules.keepRecentTokens, rules.target - verbatimTokens - rules.summaryTokens));
  let cut = view.units.length - 1;
  let suffixTokens = 0;
  for (let unitIndex = cut; unitIndex >= 0; unitIndex -= 1) {
    if (kinds[unitIndex] !== "coverable") continue;
    const unit = view.units[unitIndex]!;
    const tokens = unitTokens(view.entries, unit.start, unit.end);
    if (unitIndex < view.units.length - 1 && suffixTokens + tokens > keepTokens) break;
    suffixTokens += tokens;
    cut = unitIndex;
  }
  const coveredUnits = new Set<number>();
  let coveredThrough = -1;
  let coveredTokens = 0;
  for (let unitIndex = 0; unitIndex < cut; unitIndex += 1) {
    if (kinds[unitIndex] !== "coverable") continue;
    const unit = view.units[unitIndex]!;
    coveredUnits.add(unitIndex);
    coveredTokens += unitTokens(view.entries, unit.start, unit.end);
    for (let position = unit.start; position < unit.end; position += 1) {
      const source = view.entries[position]!.source;
      if (source.kind === "history") coveredThrough = Math.max(coveredThrough, source.index);
    }
  }
  return { kinds, unitOfEntry, coveredUnits, coveredThrough, coveredTokens };
}
