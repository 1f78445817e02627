// Token budgets from absurd (nothing fits) to generous (nothing needs compacting).
import { ContextArgumentError } from "@ctxkit/core";
import fc from "fast-check";

export interface BudgetArbitraryOptions {
  /** Smallest budget. Default 1. */
  readonly min?: number;
  /** Largest budget. Default 1 000 000. */
  readonly max?: number;
}

/**
 * Weighted toward the range where realistic histories need compacting, so strategies actually run.
 * Bands are clipped to `min`..`max`; a band entirely outside them is left out.
 */
export function budgetArbitrary(options: BudgetArbitraryOptions = {}): fc.Arbitrary<number> {
  const min = options.min ?? 1;
  const max = options.max ?? 1_000_000;
  const bands: Array<{ from: number; to: number; weight: number }> = [
    { from: 1, to: 16, weight: 1 }, // absurd: even a lone system prompt does not fit
    { from: 16, to: 256, weight: 2 },
    { from: 256, to: 4_096, weight: 4 }, // where generated histories get compacted
    { from: 4_096, to: 32_768, weight: 2 },
    { from: 32_768, to: 1_000_000, weight: 1 }, // generous
  ];
  const arbitraries = bands
    .map((band) => ({ from: Math.max(band.from, min), to: Math.min(band.to, max), weight: band.weight }))
    .filter((band) => band.from <= band.to)
    .map((band) => ({ arbitrary: fc.integer({ min: band.from, max: band.to }), weight: band.weight }));
  if (arbitraries.length === 0) {
    throw new ContextArgumentError("budgetArbitrary", [
      { path: "options", message: `empty range ${min}..${max}: min must be at most max` },
    ]);
  }
  return fc.oneof({ withCrossShrink: true }, ...arbitraries);
}
