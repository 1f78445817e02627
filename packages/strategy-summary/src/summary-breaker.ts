// The summary's own circuit breaker: it catches its summarizer's failures itself, so the pipeline's never sees them.

/**
 * Counts in compactions that needed a summarizer call, not in time, so tests and replays behave the
 * same however fast they run. Closed: calls go through. Open: the next `cooldownRequests` such
 * compactions skip the call. Half-open: the one after that tries once; a failure opens it again.
 */
export class SummaryBreaker {
  private failures = 0;
  private skipsLeft = 0;

  constructor(
    private readonly failureThreshold: number,
    private readonly cooldownRequests: number,
  ) {}

  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Asked once per compaction that would call the summarizer; true means skip it this time. */
  shouldSkip(): boolean {
    if (this.skipsLeft === 0) return false;
    this.skipsLeft -= 1;
    return true;
  }

  recordSuccess(): void {
    this.failures = 0;
    this.skipsLeft = 0;
  }

  /** Returns the consecutive failures so far. */
  recordFailure(): number {
    this.failures += 1;
    if (this.failures >= this.failureThreshold) this.skipsLeft = this.cooldownRequests;
    return this.failures;
  }
}
