// The failure latch: after one write fails, no later write runs, and each learns why.

/**
 * Keeps the first failure. A store whose write failed no longer knows what its backend holds (a torn
 * journal tail, a transaction of unknown outcome), so it stops writing until it is opened again; a
 * manager whose store failed stops, since its memory may be ahead of the store.
 */
export class FailureLatch {
  private tripped: { readonly error: unknown } | undefined;

  /** The first failure, if one happened. */
  get failure(): { readonly error: unknown } | undefined {
    return this.tripped;
  }

  /** Records `error` unless an earlier failure is recorded; returns the first failure's error. */
  trip(error: unknown): unknown {
    this.tripped ??= { error };
    return this.tripped.error;
  }

  /**
   * Runs `step` unless the latch is tripped, when it throws the first failure instead. A failing `step`
   * trips the latch; it throws `toFailure(error)` (the error itself by default), which is what is latched.
   */
  async run<T>(step: () => Promise<T>, toFailure: (error: unknown) => unknown = (error) => error): Promise<T> {
    if (this.tripped !== undefined) throw this.tripped.error;
    try {
      return await step();
    } catch (error) {
      const failure = toFailure(error);
      this.trip(failure);
      throw failure;
    }
  }
}
