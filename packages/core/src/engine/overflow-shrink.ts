// After a provider rejects a view as too long, later views for that budget stay below the rejected size, then relax.

// How far below the rejected size the next views stay.
const SHRINK = 0.75;
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
   * The budget after the provider rejected a view at `nominal`: below the smaller of what was sent
   * (`rejectedTokens`, when known) and the budget it was built for.
   */
  shrink(nominal: number, rejectedTokens: number | undefined): number {
    if (nominal <= 0) return nominal;
    const current = this.nominal === nominal ? nominal * this.scale : nominal;
    const rejected = Math.min(rejectedTokens ?? current, current);
    this.nominal = nominal;
    this.scale = (rejected * SHRINK) / nominal;
    return Math.floor(nominal * this.scale);
  }

  reset(): void {
    this.nominal = undefined;
    this.scale = 1;
  }
}
