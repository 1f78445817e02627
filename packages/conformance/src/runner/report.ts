// The framework-free report: one result per check, with a pasteable counterexample for each failure.
import type { CapabilityName } from "../subject/capabilities.js";

export type CheckStatus = "pass" | "fail" | "skip";

/** Everything needed to reproduce a failure: replay it with `seed` and `path`, or paste `input` into a test. */
export interface Counterexample {
  /** The property that failed. */
  readonly property: string;
  readonly seed: number;
  /** fast-check's path to the shrunk case; with `seed`, replays it directly. */
  readonly path: string;
  /** How many times fast-check shrank the first failing input to reach this one. */
  readonly shrinks: number;
  /** The minimal failing input: a session (history and requests), or the property's own record. */
  readonly input: unknown;
  /** Present when the failure was found with every budget raised above the minimal view; replay it so. */
  readonly regime?: "above-minimal";
}

/** One distinct failure of a property: why, the shrunk case, and what to fix in one sentence. */
export interface PropertyFailure {
  readonly reason: string;
  readonly counterexample: Counterexample;
  readonly fix: string;
}

export interface CheckResult {
  /** Stable kebab-case id, e.g. `pairing` or `mount-registers-manager`. */
  readonly name: string;
  readonly kind: "structural" | "property";
  /** The invariant or requirement in one sentence. */
  readonly description: string;
  readonly status: CheckStatus;
  readonly durationMs: number;
  /** Generated cases run, for properties (including the shrinking runs after a failure). */
  readonly runs?: number;
  /** Why it failed or was skipped. */
  readonly reason?: string;
  /** What the runs measured besides pass or fail, e.g. the share of cache-stable requests. */
  readonly note?: string;
  readonly counterexample?: Counterexample;
  /** For a property: how often its runs exercised what it checks. None at all fails it ("never exercised"). */
  readonly exercised?: Exercised;
  /** Why the check did not finish: a step outran the timeout, and the run stopped there. */
  readonly unfinished?: string;
  /** For a failed property: what to fix, in one sentence, for the failure in `reason`. */
  readonly fix?: string;
  /**
   * Every distinct failure of a failed property, first the one in `reason`: a failure that a trivial
   * one (the minimal view over a tiny budget) would hide is found with budgets above the minimal view.
   */
  readonly failures?: readonly PropertyFailure[];
}

/** What a property counted over its runs, e.g. 37 "views with a compaction". */
export interface Exercised {
  readonly what: string;
  readonly count: number;
}

export interface ConformanceReport {
  /** The module's `meta.name`, or the name given in the options. */
  readonly subject: string;
  readonly kind: "module" | "factory";
  readonly seed: number;
  /** Runs per property, before each property's own factor. */
  readonly runs: number;
  /** Which optional capabilities were tested. */
  readonly capabilities: Record<CapabilityName, boolean>;
  readonly checks: readonly CheckResult[];
  readonly passed: boolean;
  readonly counts: Readonly<Record<CheckStatus, number>>;
  /**
   * Set when the run did not finish: what did not finish and why (a step outran the timeout). The checks
   * after it were not run, and are reported as skipped with that reason; the report does not pass.
   */
  readonly incomplete?: string;
  readonly durationMs: number;
}

export function summarizeChecks(checks: readonly CheckResult[]): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, skip: 0 };
  for (const check of checks) counts[check.status] += 1;
  return counts;
}
