// Every step the kit waits on (an import, a mount, a property run) ends within a bound, or says what never returned.
import { ContextError } from "@ctxkit/core";

/** A step of a conformance run did not finish within its timeout; the run stops there. */
export class ConformanceTimeoutError extends ContextError {
  /** What did not finish, e.g. `importing the module` or `a run of pairing`. */
  readonly step: string;
  readonly timeoutMs: number;
  /** The calls into the module still waiting when the time ran out, e.g. `getMessagesForRequest()`. */
  readonly pending: readonly string[];

  constructor(step: string, timeoutMs: number, pending: readonly string[] = []) {
    const waiting = pending.length === 0 ? "" : `: ${[...new Set(pending)].join(", ")} never returned`;
    super(
      "CONFORMANCE_TIMEOUT",
      `${step} did not finish within ${timeoutMs} ms${waiting}. ` +
        `Find what the module waits on there (a promise nothing resolves, a network call with no timeout), ` +
        `or raise --timeout (timeoutMs) if it is legitimately slow.`,
    );
    this.step = step;
    this.timeoutMs = timeoutMs;
    this.pending = pending;
  }
}

export interface StepTimeoutOptions {
  readonly step: string;
  readonly timeoutMs: number;
  /** The module's calls still waiting, read when the time runs out. */
  readonly pending?: () => readonly string[];
}

/**
 * Resolves as `work` does, or rejects with a ConformanceTimeoutError once `timeoutMs` has passed. The work
 * itself cannot be cancelled: it is abandoned. The timer is cleared either way, so it holds nothing open.
 */
export function withStepTimeout<T>(work: Promise<T>, options: StepTimeoutOptions): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ConformanceTimeoutError(options.step, options.timeoutMs, options.pending?.() ?? [])),
      options.timeoutMs,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
