// runAdapterConformance: every adapter check as a seeded, shrinking fast-check property, framework-free.
import fc from "fast-check";
import { describeError, PropertyViolation } from "../checks/violation.js";
import type { CheckResult } from "../runner/report.js";
import { createSeed } from "../runner/run-conformance.js";
import { ADAPTER_CHECKS, type AdapterCheck } from "./adapter-checks.js";
import { DEFAULT_ADAPTER_RUNS, type AdapterConformanceOptions, type AdapterSubject } from "./adapter-subject.js";

/** Runs one check: its fixed examples first, then generated cases. */
export function runAdapterCheck(adapter: AdapterSubject, check: AdapterCheck, options: AdapterConformanceOptions = {}): CheckResult {
  const seed = options.seed ?? createSeed();
  const started = performance.now();
  let runs = 0;
  const details = fc.check(
    fc.property(check.arbitrary(adapter), (input) => {
      runs += 1;
      check.run(adapter, input);
    }),
    {
      numRuns: options.runs ?? DEFAULT_ADAPTER_RUNS,
      seed,
      examples: check.examples.map((example) => [example] as [unknown]),
      ...(options.path === undefined ? {} : { path: options.path }),
    },
  );
  const base = {
    name: check.name,
    kind: "property" as const,
    description: check.description,
    runs,
    durationMs: performance.now() - started,
  };
  if (!details.failed) return { ...base, status: "pass" };
  const error = details.errorInstance;
  const reason = error instanceof PropertyViolation ? error.message : `the adapter threw ${describeError(error)}`;
  if (details.counterexample === null) return { ...base, status: "fail", reason };
  return {
    ...base,
    status: "fail",
    reason,
    counterexample: {
      property: check.name,
      seed: details.seed,
      path: details.counterexamplePath ?? "",
      shrinks: details.numShrinks,
      input: details.counterexample[0],
    },
  };
}

/**
 * Every adapter check against `adapter`: lossless round trips, whole tool pairs, the provider's rules (its
 * `validate`) with no metadata sent, and typed errors on malformed input. One result per check.
 */
export function runAdapterConformance(adapter: AdapterSubject, options: AdapterConformanceOptions = {}): CheckResult[] {
  const seed = options.seed ?? createSeed();
  return ADAPTER_CHECKS.map((check) => runAdapterCheck(adapter, check, { ...options, seed }));
}
