// @ctxkit/conformance/vitest: the whole conformance suite as vitest tests, in one call.
import { describe, it } from "vitest";
import { CONFORMANCE_PROPERTIES } from "./properties/all-properties.js";
import { ADAPTER_CHECKS } from "./adapter/adapter-checks.js";
import { DEFAULT_ADAPTER_RUNS, DEFAULT_LOOP_RUNS, type AdapterConformanceOptions, type AdapterSubject } from "./adapter/adapter-subject.js";
import { runAdapterCheck, runAdapterLoopCheck, loopSkipReason } from "./adapter/run-adapter-conformance.js";
import { LOOP_CHECKS } from "./adapter/loop-checks.js";
import { formatFailure } from "./runner/format-report.js";
import type { CheckResult } from "./runner/report.js";
import {
  createSeed,
  createPropertyContext,
  DEFAULT_RUNS,
  DEFAULT_TIMEOUT_MS,
  findSkipReason,
  probeCapabilities,
  type ConformanceOptions,
} from "./runner/run-conformance.js";
import { runProperty, runsFor } from "./runner/run-property.js";
import { propertyRuns } from "./runner/property-runs.js";
import { withStepTimeout } from "./runner/step-timeout.js";
import { listStructuralChecks, runStructuralCheck } from "./runner/structural-checks.js";
import { runStrategyConformance, type StrategyConformanceOptions, type StrategySubject } from "./strategy/run-strategy-conformance.js";
import type { ResolvedCapabilities } from "./subject/capabilities.js";
import {
  resolveSubject,
  unwrapDefaultExport,
  type ConformanceSubject,
  type ContextManagerFactory,
  type ContextModuleLike,
} from "./subject/subject.js";

export interface DescribeContextManagerOptions extends Omit<ConformanceOptions, "onProgress" | "name"> {
  /** Longest one vitest test (one property, shrinking included) may take. Default 300 s. */
  readonly testTimeoutMs?: number;
  /**
   * Runs for the view properties (`VIEW_PROPERTIES`), which depend only on the history a store hands the
   * engine: a store whose own suite proves that history may run them at fewer runs than `runs`, which every
   * other property keeps. `CTXKIT_CONFORMANCE_RUNS` sets both.
   */
  readonly viewPropertyRuns?: number;
}

/** Reads the replay settings a failure message suggests, so a failing case reruns without editing code. */
function readEnvironment(): Pick<ConformanceOptions, "runs" | "seed" | "path" | "only" | "regime"> {
  const environment = typeof process === "undefined" ? {} : process.env;
  const number = (value: string | undefined) => (value === undefined || value === "" ? undefined : Number(value));
  const runs = number(environment["CTXKIT_CONFORMANCE_RUNS"]);
  const seed = number(environment["CTXKIT_CONFORMANCE_SEED"]);
  const path = environment["CTXKIT_CONFORMANCE_PATH"];
  const only = environment["CTXKIT_CONFORMANCE_ONLY"];
  const regime = environment["CTXKIT_CONFORMANCE_REGIME"];
  return {
    ...(runs === undefined ? {} : { runs }),
    ...(seed === undefined ? {} : { seed }),
    ...(path === undefined || path === "" ? {} : { path }),
    ...(only === undefined || only === "" ? {} : { only: only.split(",") }),
    ...(regime === "above-minimal" ? { regime } : {}),
  };
}

function failureMessage(result: CheckResult): string {
  const replay =
    result.counterexample === undefined
      ? ""
      : `\n\nReplay: CTXKIT_CONFORMANCE_ONLY=${result.name} CTXKIT_CONFORMANCE_SEED=${result.counterexample.seed} ` +
        `CTXKIT_CONFORMANCE_PATH=${result.counterexample.path}` +
        (result.counterexample.regime === undefined ? "" : ` CTXKIT_CONFORMANCE_REGIME=${result.counterexample.regime}`) +
        ` vitest run <this file>, ` +
        `or paste the JSON into replayCounterexample(subject, counterexample) from @ctxkit/conformance.`;
  return formatFailure(result) + replay;
}

/**
 * Registers the conformance suite for a module (or a factory of fresh managers) in vitest: one test per
 * structural check and per property. Properties the manager cannot run (a missing optional capability,
 * events that cannot be observed) are registered as skipped, with the reason in their name.
 * Environment overrides: CTXKIT_CONFORMANCE_RUNS, _SEED, _ONLY (comma-separated), _PATH.
 */
export function describeContextManager(name: string, input: ConformanceSubject, options: DescribeContextManagerOptions = {}): void {
  const environment = readEnvironment();
  const settings = { ...options, ...environment };
  const subject = unwrapDefaultExport(input) as ContextModuleLike | ContextManagerFactory;
  const config = settings.config ?? {};
  const seed = settings.seed ?? createSeed();
  const runs = settings.runs ?? DEFAULT_RUNS;
  const runsOf = (name: string) =>
    propertyRuns(name, { runs, viewPropertyRuns: options.viewPropertyRuns, environmentRuns: environment.runs });
  const timeout = settings.testTimeoutMs ?? 300_000;
  const stepTimeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Set once a step outran its bound: every later property would wait as long again, so it is not run.
  let unfinished: string | undefined;
  const isSelected = (checkName: string) => settings.only === undefined || settings.only.includes(checkName);

  describe(`${name} keeps the ctxkit contract`, async () => {
    // vitest fails a describe that registers no test, so a selection of properties only registers no "structure".
    const structuralChecks = listStructuralChecks(subject, config).filter((check) => isSelected(check.name));
    if (structuralChecks.length > 0)
      describe("structure", () => {
        for (const check of structuralChecks) {
          it(`should pass: ${check.description}`, async () => {
            const result = await runStructuralCheck(check, { timeoutMs: stepTimeoutMs });
            if (result.unfinished !== undefined) unfinished ??= `${check.name} did not finish`;
            if (result.status === "fail") throw new Error(`${check.name}: ${result.reason}`);
          });
        }
      });

    const resolved = resolveSubject(subject, { config, subscribe: settings.subscribe, restart: settings.restart });
    let capabilities: ResolvedCapabilities | undefined;
    let probeError = "";
    try {
      capabilities = await withStepTimeout(probeCapabilities(resolved, settings.capabilities), {
        step: "mounting a manager to learn its capabilities",
        timeoutMs: stepTimeoutMs,
      });
    } catch (error) {
      probeError = error instanceof Error ? error.message : String(error);
    }

    const properties = CONFORMANCE_PROPERTIES.filter((property) => isSelected(property.name));
    if (properties.length > 0)
      describe("properties", () => {
        for (const property of properties) {
          // Nothing to test is a failure, never a quiet run of skips: each property fails with why.
          if (capabilities === undefined) {
            it(`${property.title} (${property.name})`, () => {
              throw new Error(`${property.name}: no manager to test: ${probeError}`);
            });
            continue;
          }
          const context = createPropertyContext(resolved, capabilities, settings);
          const missing = property.requires === undefined ? undefined : capabilities[property.requires];
          if (missing?.missing === true) {
            it(`${property.title} (${property.name})`, () => {
              throw new Error(`${property.name}: ${missing.reason}`);
            });
            continue;
          }
          const skipReason = findSkipReason(property, context);
          if (skipReason !== undefined) {
            it.skip(`${property.title} (${property.name}) — skipped: ${skipReason}`, () => {});
            continue;
          }
          it(
            `${property.title} (${property.name}, ${runsFor(property, runsOf(property.name))} runs)`,
            async (test) => {
              if (unfinished !== undefined) throw new Error(`${property.name}: not run: ${unfinished}`);
              const propertyRuns = runsOf(property.name);
              const result = await runProperty(property, context, {
                runs: propertyRuns,
                seed,
                path: settings.path,
                timeoutMs: stepTimeoutMs,
              });
              if (result.unfinished !== undefined) unfinished = `${property.name} did not finish`;
              if (result.status === "fail") throw new Error(failureMessage(result));
              // Nothing to exercise on this subject (offloading not configured, say): a skip that says why.
              if (result.status === "skip") test.skip(result.reason);
            },
            timeout,
          );
        }
      });
  });
}
export {
  describeMessageStore,
  type FaultyStore,
  type FreezableStore,
  type MessageStoreFactory,
  type MessageStoreSuiteOptions,
  type StoreFaultHooks,
  type CorruptRecordKind,
  type CredentialStores,
  type StoreHostileHooks,
} from "./store/describe-message-store.js";

/**
 * Registers the adapter suite: one test per check (round trip, tool pairs, provider rules, malformed input),
 * each starting with fixed cases and then generated histories, and, for an adapter that gives its `loop`,
 * one per loop check (malformed usage, a provider that rejects every request as too long, input switches, a
 * provider that counts 1.2–2.0× the manager's tokens).
 * An adapter's test is a few lines:
 * `describeAdapter("anthropic", { name, toProvider, fromProvider, validate })`.
 * Environment overrides: CTXKIT_CONFORMANCE_RUNS, _SEED, _PATH, _ONLY.
 */
export function describeAdapter<Payload>(
  name: string,
  adapter: AdapterSubject<Payload>,
  options: AdapterConformanceOptions & { testTimeoutMs?: number } = {},
): void {
  const settings = { ...options, ...readEnvironment() };
  const seed = settings.seed ?? createSeed();
  const runs = settings.runs ?? DEFAULT_ADAPTER_RUNS;
  describe(`${name} keeps the ctxkit adapter contract`, () => {
    for (const check of ADAPTER_CHECKS) {
      if (settings.only !== undefined && !settings.only.includes(check.name)) continue;
      it(
        `${check.description} (${check.name}, ${runs} runs)`,
        () => {
          const result = runAdapterCheck(adapter as AdapterSubject, check, { ...settings, seed, runs });
          if (result.status !== "fail") return;
          const replay =
            result.counterexample === undefined
              ? ""
              : `\n\nReplay: CTXKIT_CONFORMANCE_ONLY=${check.name} CTXKIT_CONFORMANCE_SEED=${result.counterexample.seed} CTXKIT_CONFORMANCE_PATH=${result.counterexample.path} vitest run <this file>`;
          throw new Error(formatFailure(result) + replay);
        },
        settings.testTimeoutMs ?? 300_000,
      );
    }
    // The loop checks: scripted conversations through the adapter's loop wrapper, when it gives one.
    const loopRuns = settings.runs ?? DEFAULT_LOOP_RUNS;
    for (const check of LOOP_CHECKS) {
      if (settings.only !== undefined && !settings.only.includes(check.name)) continue;
      const skipped = loopSkipReason(adapter as AdapterSubject, check);
      if (skipped !== undefined) {
        it.skip(`${check.name} (skipped: ${skipped})`, () => {});
        continue;
      }
      it(
        `${check.description} (${check.name}, ${Math.min(loopRuns, check.maxRuns ?? loopRuns)} runs)`,
        async () => {
          const result = await runAdapterLoopCheck(adapter as AdapterSubject, check, { ...settings, seed, runs: loopRuns });
          if (result.status !== "fail") return;
          const replay =
            result.counterexample === undefined
              ? ""
              : `\n\nReplay: CTXKIT_CONFORMANCE_ONLY=${check.name} CTXKIT_CONFORMANCE_SEED=${result.counterexample.seed} CTXKIT_CONFORMANCE_PATH=${result.counterexample.path} vitest run <this file>`;
          throw new Error(formatFailure(result) + replay);
        },
        settings.testTimeoutMs ?? 300_000,
      );
    }
  });
}

/**
 * Registers one test for a pipeline strategy on its own: over generated view drafts it keeps units whole,
 * never drops or alters protected entries, shortens history messages only with a recorded edit, and is
 * deterministic. Pass a factory for a strategy with state of its own (a breaker, a cache).
 * Environment overrides: CTXKIT_CONFORMANCE_RUNS, _SEED, _PATH.
 */
export function describeStrategy(
  name: string,
  strategy: StrategySubject,
  options: StrategyConformanceOptions & { testTimeoutMs?: number } = {},
): void {
  const settings = { ...options, ...readEnvironment() };
  const seed = settings.seed ?? createSeed();
  describe(`${name} keeps the ctxkit strategy contract`, () => {
    it(
      `should keep units, protected entries and history intact, deterministically (strategy, ${settings.runs ?? DEFAULT_RUNS} runs)`,
      async () => {
        const result = await runStrategyConformance(strategy, { ...settings, seed });
        if (result.status !== "fail") return;
        const replay =
          result.counterexample === undefined
            ? ""
            : `\n\nReplay: CTXKIT_CONFORMANCE_SEED=${result.counterexample.seed} CTXKIT_CONFORMANCE_PATH=${result.counterexample.path} vitest run <this file>`;
        throw new Error(formatFailure(result) + replay);
      },
      settings.testTimeoutMs ?? 300_000,
    );
  });
}
export type { AdapterSubject, AdapterConformanceOptions } from "./adapter/adapter-subject.js";
