// After a provider rejects a view as too long, later views for that budget stay below the rejected size, then relax.
//
// One unit throughout: the provider's tokens, the unit of the nominal budget (a window less its reserves).
// The planner turns a rejected view's own count into the provider's before it gets here, and the budget that
// comes out is calibrated to the manager's count once, like any other.

/** The next attempt after a rejection at S provider tokens aims at this fraction of S. */
export const OVERFLOW_SHRINK = 0.75;
// How much of the full budget each later request at the same budget wins back.
const RELAX_STEP = 0.01;

export class OverflowShrink {
  /** The nominal budget that overflowed; the shrink applies to it alone. */
  private nominal: number | undefined;
  private scale = 1;

  /** The budget for a request at `nominal` that did not overflow: shrunk if `nominal` overflowed, relaxing a step each time. */
  apply(nominal: number): number {
    if (this.nominal !== nominal) {
      this.reset();
      return nominal;
    }
    this.scale = Math.min(1, this.scale + RELAX_STEP);
    if (this.scale === 1) this.reset();
    return this.peek(nominal);
  }

  /** What `apply` would have given before its step, changing nothing. */
  peek(nominal: number): number {
    return this.nominal === nominal ? Math.floor(nominal * this.scale) : nominal;
  }

  /**
   * The budget after the provider rejected a view at `nominal`: `OVERFLOW_SHRINK` of the smaller of what
   * was sent (`rejectedTokens`, in the provider's tokens, when known) and the budget it was built for.
   */
  shrink(nominal: number, rejectedTokens: number | undefined): number {
    if (nominal <= 0) return nominal;
    const current = this.nominal === nominal ? nominal * this.scale : nominal;
    const rejected = Math.min(rejectedTokens ?? current, current);
    this.nominal = nominal;
    this.scale = (rejected * OVERFLOW_SHRINK) / nominal;
    return Math.floor(nominal * this.scale);
  }

  /**
   * Lifts the shrink of `nominal` to at least `tokens` (provider tokens): what the smallest view the
   * strategies could make takes. A shrink never goes below the minimal view; the provider's answer to that
   * view decides whether it fits.
   */
  holdAtLeast(nominal: number, tokens: number): number {
    if (this.nominal !== nominal) return nominal;
    this.scale = Math.max(this.scale, Math.min(1, tokens / nominal));
    if (this.scale === 1) this.reset();
    // `nominal * (tokens / nominal)` can round to just below `tokens`.
    return Math.min(nominal, Math.max(tokens, this.peek(nominal)));
  }

  reset(): void {
    this.nominal = undefined;
    this.scale = 1;
  }
}
