// runAdapterConformance: every adapter check as a seeded, shrinking fast-check property, framework-free.
import fc from "fast-check";
import { describeError, PropertyViolation } from "../checks/violation.js";
import type { CheckResult } from "../runner/report.js";
import { createSeed } from "../runner/run-conformance.js";
import { ADAPTER_CHECKS, type AdapterCheck } from "./adapter-checks.js";
import { DEFAULT_ADAPTER_RUNS, DEFAULT_LOOP_RUNS, type AdapterConformanceOptions, type AdapterSubject } from "./adapter-subject.js";
import { LOOP_CHECKS, runLoopScript, type LoopCheck, type LoopScript } from "./loop-checks.js";

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

/** Why `check` does not run against `adapter`: it has no loop, or its loop cannot do what the check needs. */
export function loopSkipReason(adapter: AdapterSubject, check: LoopCheck): string | undefined {
  if (adapter.loop === undefined)
    return "the adapter gives no loop wrapper: pass `loop: { inputs, call }` to check that what a call stores agrees with what it returns";
  return check.skipReason(adapter.loop);
}

/** Runs one loop check: its fixed scripts first, then generated ones, each over a fresh manager. */
export async function runAdapterLoopCheck(
  adapter: AdapterSubject,
  check: LoopCheck,
  options: AdapterConformanceOptions = {},
): Promise<CheckResult> {
  const started = performance.now();
  const base = { name: check.name, kind: "property" as const, description: check.description };
  const skipped = loopSkipReason(adapter, check);
  if (skipped !== undefined) return { ...base, status: "skip", reason: skipped, durationMs: 0 };
  const loop = adapter.loop!;
  const seed = options.seed ?? createSeed();
  let runs = 0;
  const details = await fc.check(
    fc.asyncProperty(check.arbitrary(loop), async (script) => {
      runs += 1;
      await runLoopScript(loop, script);
    }),
    {
      numRuns: Math.min(options.runs ?? DEFAULT_LOOP_RUNS, check.maxRuns ?? Number.POSITIVE_INFINITY),
      seed,
      examples: check.examples(loop).map((example) => [example] as [LoopScript]),
      ...(options.path === undefined ? {} : { path: options.path }),
    },
  );
  const result = { ...base, runs, durationMs: performance.now() - started };
  if (!details.failed) return { ...result, status: "pass" };
  const error = details.errorInstance;
  const reason = error instanceof PropertyViolation ? error.message : `the loop check threw ${describeError(error)}`;
  if (details.counterexample === null) return { ...result, status: "fail", reason };
  return {
    ...result,
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
 * The loop checks against `adapter.loop`: a provider's malformed usage, a provider that rejects every request
 * as too long, a caller who switches input modes, and a provider that counts 1.2–2.0× the manager's tokens, each with the rule that what a call stored agrees with
 * what it returned. Skipped, with the reason, for an adapter with no loop. One result per check.
 */
export async function runAdapterLoopConformance(adapter: AdapterSubject, options: AdapterConformanceOptions = {}): Promise<CheckResult[]> {
  const seed = options.seed ?? createSeed();
  const results: CheckResult[] = [];
  for (const check of LOOP_CHECKS) results.push(await runAdapterLoopCheck(adapter, check, { ...options, seed }));
  return results;
}
