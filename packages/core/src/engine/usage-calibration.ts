// Learns how the provider's token count relates to the manager's, from the usage it reports, and scales budgets by it.

// How much each report moves the scale: a steady gap is learned in a few reports, one odd report is not.
const SMOOTHING = 0.5;
// The scale stays within these bounds, whatever a provider reports: a budget is scaled by at most 2× either way,
// and a lifted budget never passes the configured `maxTokens` (see `apply`).
const MIN_SCALE = 0.5;
const MAX_SCALE = 2;
// A move of the scale this large since the last one announced is announced again.
const ANNOUNCE_STEP = 0.05;

export interface Calibration {
  /** Provider tokens per counted token. */
  readonly scale: number;
  readonly reportedTokens: number;
  readonly countedTokens: number;
}

export class UsageCalibration {
  scale = 1;
  private announcedScale = 1;

  /**
   * Records that the provider counted `reportedTokens` for what the manager counted as `countedTokens`.
   * Returns the new calibration when it moved far enough to announce.
   */
  record(reportedTokens: number, countedTokens: number): Calibration | undefined {
    if (!(reportedTokens > 0) || !(countedTokens > 0) || !Number.isFinite(reportedTokens)) return undefined;
    const sample = Math.min(MAX_SCALE, Math.max(MIN_SCALE, reportedTokens / countedTokens));
    this.scale = this.scale + SMOOTHING * (sample - this.scale);
    if (Math.abs(this.scale - this.announcedScale) < ANNOUNCE_STEP) return undefined;
    this.announcedScale = this.scale;
    return { scale: this.scale, reportedTokens, countedTokens };
  }

  /**
   * `budget` in the manager's own tokens: what the provider would count as `budget`. A provider that
   * counts fewer tokens than the manager lifts the budget, but never past `cap` (the configured
   * `maxTokens`, which is always a cap); one that counts more shrinks it freely.
   */
  apply(budget: number, cap = Number.POSITIVE_INFINITY): number {
    if (this.scale === 1) return budget;
    const calibrated = Math.floor(budget / this.scale);
    return calibrated > budget ? Math.max(budget, Math.min(calibrated, cap)) : calibrated;
  }
}
