// A per-strategy circuit breaker: a strategy that keeps failing is skipped for a while, then retried once.
import { ContextArgumentError } from "../errors.js";

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. Default 3. */
  failureThreshold?: number;
  /** Pipeline runs a strategy is skipped for once its circuit opens. Default 5. */
  cooldownRequests?: number;
}

export type CircuitState = "closed" | "open" | "half-open";

interface StrategyRecord {
  consecutiveFailures: number;
  /** The run in which the circuit last opened, or undefined while closed. */
  openedAtRun: number | undefined;
}

/**
 * Counts runs rather than wall-clock time, so behaviour is deterministic and does not depend on how
 * often the agent calls the model. Call `tick()` once at the start of every pipeline run.
 */
export class CircuitBreaker {
  readonly failureThreshold: number;
  readonly cooldownRequests: number;
  #run = 0;
  readonly #records = new Map<string, StrategyRecord>();

  constructor(options: CircuitBreakerOptions = {}) {
    const { failureThreshold = 3, cooldownRequests = 5 } = options ?? {};
    if (!Number.isInteger(failureThreshold) || failureThreshold < 1) {
      throw new ContextArgumentError("CircuitBreaker", [
        { path: "failureThreshold", message: `must be an integer of at least 1, got ${String(failureThreshold)}` },
      ]);
    }
    if (!Number.isInteger(cooldownRequests) || cooldownRequests < 0) {
      throw new ContextArgumentError("CircuitBreaker", [
        { path: "cooldownRequests", message: `must be a non-negative integer, got ${String(cooldownRequests)}` },
      ]);
    }
    this.failureThreshold = failureThreshold;
    this.cooldownRequests = cooldownRequests;
  }

  /** A copy that counts on its own: a preview of a run changes nothing in this one. */
  clone(): CircuitBreaker {
    const copy = new CircuitBreaker({ failureThreshold: this.failureThreshold, cooldownRequests: this.cooldownRequests });
    copy.#run = this.#run;
    for (const [name, record] of this.#records) copy.#records.set(name, { ...record });
    return copy;
  }

  /** Starts a new pipeline run; open circuits count their cool-down in runs. */
  tick(): void {
    this.#run += 1;
  }

  state(name: string): CircuitState {
    const openedAtRun = this.#records.get(name)?.openedAtRun;
    if (openedAtRun === undefined) return "closed";
    return this.#run - openedAtRun > this.cooldownRequests ? "half-open" : "open";
  }

  /** Closed and half-open circuits run; a half-open one gets a single trial. */
  shouldRun(name: string): boolean {
    return this.state(name) !== "open";
  }

  consecutiveFailures(name: string): number {
    return this.#records.get(name)?.consecutiveFailures ?? 0;
  }

  recordSuccess(name: string): void {
    this.#records.delete(name);
  }

  /** Returns the consecutive failures so far. A failed half-open trial reopens for a full cool-down. */
  recordFailure(name: string): number {
    const record = this.#records.get(name) ?? { consecutiveFailures: 0, openedAtRun: undefined };
    record.consecutiveFailures += 1;
    if (record.consecutiveFailures >= this.failureThreshold) record.openedAtRun = this.#run;
    this.#records.set(name, record);
    return record.consecutiveFailures;
  }
}
