// When a candidate beats an incumbent on the cost benchmark: no worse on cost or retention, better on one, and no new fault.

/** What the comparison reads of one system's figures at one budget. */
export interface ParetoFigures {
  /** Billed input ÷ the full history's, under Anthropic pricing. */
  readonly costAnthropic: number;
  /** Share of the facts the calls used that their views held. */
  readonly retention: number;
  readonly refused: number;
  readonly pairFaults: number;
  readonly overBudget: number;
}

/**
 * Whether `own` is at least as cheap and keeps at least as much as `other`, better on one of the two, with
 * no pair fault or over-budget view, and no more refusals than `other` (at a small budget a turn may not fit at all).
 */
export function isParetoGain(own: ParetoFigures, other: ParetoFigures): boolean {
  if (own.refused > other.refused || own.pairFaults > 0 || own.overBudget > 0) return false;
  const isNoWorse = own.costAnthropic <= other.costAnthropic && own.retention >= other.retention;
  return isNoWorse && (own.costAnthropic < other.costAnthropic || own.retention > other.retention);
}
