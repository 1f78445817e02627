// runConformance: the structural checks, then every property, as one framework-free report.
import { ContextArgumentError } from "@ctxkit/core";
import { CONFORMANCE_PROPERTIES } from "../properties/all-properties.js";
import type { ConformanceProperty, PropertyContext } from "../properties/property.js";
import { CAPABILITY_NAMES, resolveCapabilities, type CapabilityFlags, type ResolvedCapabilities } from "../subject/capabilities.js";
import {
  isContextModuleLike,
  resolveSubject,
  unwrapDefaultExport,
  type ConformanceSubject,
  type ContextManagerFactory,
  type ContextModuleLike,
  type ResolvedSubject,
  type SubscribeToEvents,
} from "../subject/subject.js";
import { describeError } from "../checks/violation.js";
import type { CheckResult, ConformanceReport } from "./report.js";
import type { BudgetRegime } from "../subject/manager-driver.js";
import { summarizeChecks } from "./report.js";
import { createPendingCalls, observeSubject } from "./observe-subject.js";
import { runProperty, runsFor } from "./run-property.js";
import { ConformanceTimeoutError, withStepTimeout } from "./step-timeout.js";
import { listStructuralChecks, runStructuralCheck } from "./structural-checks.js";

/** Runs per property by default: enough to find the usual bugs, fast enough for CI. */
export const DEFAULT_RUNS = 100;
export const DEFAULT_CONCURRENT_ADDS = 50;

/** What every property is run with: the subject, what it can do, and what it declared. */
export function createPropertyContext(
  subject: PropertyContext["subject"],
  capabilities: ResolvedCapabilities,
  options: Pick<ConformanceOptions, "concurrentAdds" | "restart" | "summarizer" | "regime" | "sharedStore">,
): PropertyContext {
  return {
    subject,
    regime: options.regime ?? "any",
    capabilities,
    concurrentAdds: options.concurrentAdds ?? DEFAULT_CONCURRENT_ADDS,
    features: { restart: options.restart, summarizer: options.summarizer, sharedStore: options.sharedStore },
  };
}
export const DEFAULT_TIMEOUT_MS = 30_000;

export type ProgressEvent =
  | { readonly type: "start"; readonly subject: string; readonly kind: "module" | "factory"; readonly seed: number; readonly runs: number }
  | { readonly type: "capabilities"; readonly capabilities: ConformanceReport["capabilities"] }
  | { readonly type: "check-start"; readonly name: string; readonly kind: "structural" | "property"; readonly runs?: number }
  | { readonly type: "run"; readonly name: string; readonly run: number; readonly runs: number; readonly shrinking: boolean }
  | { readonly type: "check-end"; readonly result: CheckResult };

export interface ConformanceOptions {
  /** Runs per property (some properties use a share of it). Default 100. */
  readonly runs?: number;
  /** Seed for every property; random by default and always reported. */
  readonly seed?: number;
  /** Replays one counterexample: its `path`, with `seed` and `only: [property]`. */
  readonly path?: string;
  /** Run only these checks (property or structural names). */
  readonly only?: readonly string[];
  /** Skip (`false`), require (`true`) or detect (absent) each optional capability. */
  readonly capabilities?: CapabilityFlags;
  /**
   * The config a module is mounted with, or a function of each instance's settings (`{ sessionId,
   * summarizer }`) that returns it. Default `{}`.
   */
  readonly config?: unknown;
  /**
   * Sessions outlive their instance: a module (or factory) given a `sessionId` it saw before resumes that
   * session. Enables the restart property. Default false.
   */
  readonly restart?: boolean;
  /**
   * Instances opened on the same `sessionId` share one store, at the same time (two workers on one
   * session): enables **shared-state**, which pins from both concurrently. Default false.
   */
  readonly sharedStore?: boolean;
  /** The module's summary strategy uses `settings.summarizer`: the kit then checks what summaries claim to cover. Default false. */
  readonly summarizer?: boolean;
  /** How to hear a plain factory's events; modules are heard through their coordinator's hooks. */
  readonly subscribe?: SubscribeToEvents;
  /** How many `addMessage` calls the concurrency property fires at once. Default 50. */
  readonly concurrentAdds?: number;
  /**
   * `above-minimal` raises every budget above the minimal view, as the second pass over a failed
   * property does; give it to replay a counterexample that carries `regime`. Default `any`.
   */
  readonly regime?: BudgetRegime;
  /** Shrink each failure to a minimal counterexample. `false` stops at the first failing run (a detection sweep). Default true. */
  readonly shrink?: boolean;
  /**
   * Longest any one step may take: a structural check (a mount), learning the capabilities, one run of a
   * property. A step that takes longer fails, and the run stops there: the report is `incomplete`, and the
   * checks after it are skipped as not run. Default 30 s.
   */
  readonly timeoutMs?: number;
  /** Shown in the report; a module's `meta.name` by default. */
  readonly name?: string;
  readonly onProgress?: (event: ProgressEvent) => void;
}

export function createSeed(): number {
  return (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) >>> 0;
}

function subjectName(subject: unknown, options: ConformanceOptions): string {
  if (options.name !== undefined) return options.name;
  const meta = (subject as { meta?: { name?: unknown } } | undefined)?.meta;
  if (typeof meta?.name === "string") return meta.name;
  return typeof subject === "function" && subject.name !== "" ? subject.name : "context manager";
}

/** Why a property cannot run against this manager, or undefined when it can. */
export function findSkipReason(property: ConformanceProperty, context: PropertyContext): string | undefined {
  if (property.requires !== undefined) {
    const capability = context.capabilities[property.requires];
    if (!capability.enabled) return capability.missing === true ? undefined : capability.reason;
  }
  return property.skipReason?.(context);
}

/** A declared capability the manager lacks is a failure of the property that needs it. */
function findMissingCapability(property: ConformanceProperty, capabilities: ResolvedCapabilities): string | undefined {
  if (property.requires === undefined) return undefined;
  const capability = capabilities[property.requires];
  return capability.missing === true ? capability.reason : undefined;
}

/** Creates one manager to learn its capabilities, then disposes of it. */
export async function probeCapabilities(subject: ResolvedSubject, flags: CapabilityFlags | undefined): Promise<ResolvedCapabilities> {
  const instance = await subject.create();
  try {
    return resolveCapabilities(instance.manager, instance.events !== undefined, flags);
  } finally {
    await instance.dispose();
  }
}

export async function runConformance(input: ConformanceSubject, options: ConformanceOptions = {}): Promise<ConformanceReport> {
  const started = performance.now();
  const subject = unwrapDefaultExport(input) as ConformanceSubject;
  const seed = options.seed ?? createSeed();
  const runs = options.runs ?? DEFAULT_RUNS;
  const isSelected = (name: string) => options.only === undefined || options.only.includes(name);
  const emit = options.onProgress ?? (() => {});
  const checks: CheckResult[] = [];

  const resolved = resolveSubject(subject, { config: options.config ?? {}, subscribe: options.subscribe, restart: options.restart });
  const structuralPending = createPendingCalls();
  const structuralChecks = listStructuralChecks(
    subject as ContextModuleLike | ContextManagerFactory,
    options.config ?? {},
    structuralPending,
  );
  // A misspelt name in `only` would otherwise pass vacuously, checking nothing.
  const known = [...structuralChecks.map((check) => check.name), ...CONFORMANCE_PROPERTIES.map((property) => property.name)];
  const unknown = (options.only ?? []).filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new ContextArgumentError("runConformance", [
      { path: "options.only", message: `unknown check(s) ${unknown.join(", ")}; known checks: ${known.join(", ")}` },
    ]);
  }
  emit({ type: "start", subject: subjectName(subject, options), kind: resolved.kind, seed, runs });

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Set once a step outran the timeout: what did not finish and why. Every check after it is not run.
  let incomplete: string | undefined;
  let stoppedAt = "";
  const notRun = (name: string, kind: CheckResult["kind"], description: string): CheckResult => ({
    name,
    kind,
    description,
    durationMs: 0,
    status: "skip",
    reason: `not run: ${stoppedAt} did not finish`,
  });

  for (const check of structuralChecks) {
    if (!isSelected(check.name)) continue;
    if (incomplete !== undefined) {
      const result = notRun(check.name, "structural", check.description);
      checks.push(result);
      emit({ type: "check-end", result });
      continue;
    }
    emit({ type: "check-start", name: check.name, kind: "structural" });
    const result = await runStructuralCheck(check, { timeoutMs, pending: structuralPending });
    if (result.unfinished !== undefined) [stoppedAt, incomplete] = [check.name, result.unfinished];
    checks.push(result);
    emit({ type: "check-end", result });
  }

  let capabilities: ResolvedCapabilities | undefined;
  let probeError: string | undefined;
  if (incomplete === undefined) {
    const pending = createPendingCalls();
    try {
      capabilities = await withStepTimeout(probeCapabilities(observeSubject(resolved, { pending }), options.capabilities), {
        step: "mounting a manager to learn its capabilities",
        timeoutMs,
        pending: pending.list,
      });
    } catch (error) {
      if (error instanceof ConformanceTimeoutError) [stoppedAt, incomplete] = ["learning the capabilities", error.message];
      probeError = `no manager to test: ${error instanceof Error ? error.message : describeError(error)}`;
    }
  }
  const tested = Object.fromEntries(
    CAPABILITY_NAMES.map((name) => [name, capabilities?.[name].enabled === true]),
  ) as ConformanceReport["capabilities"];
  emit({ type: "capabilities", capabilities: tested });

  for (const property of CONFORMANCE_PROPERTIES) {
    if (!isSelected(property.name)) continue;
    const base = { name: property.name, kind: "property" as const, description: property.invariant, durationMs: 0 };
    if (incomplete !== undefined) {
      const result = notRun(property.name, "property", property.invariant);
      checks.push(result);
      emit({ type: "check-end", result });
      continue;
    }
    if (capabilities === undefined) {
      // A module whose structural check already failed says why there is no manager; otherwise (a factory,
      // a selection without that check, a manager that throws when probed) each property fails, so a run
      // that tested nothing can never pass.
      const isExplained = isContextModuleLike(subject) && checks.some((check) => check.kind === "structural" && check.status === "fail");
      const result: CheckResult = { ...base, status: isExplained ? "skip" : "fail", reason: probeError ?? "no manager" };
      checks.push(result);
      emit({ type: "check-end", result });
      continue;
    }
    const context = createPropertyContext(resolved, capabilities, options);
    const missing = findMissingCapability(property, capabilities);
    const skipReason = findSkipReason(property, context);
    if (missing !== undefined || skipReason !== undefined) {
      const result: CheckResult =
        missing !== undefined ? { ...base, status: "fail", reason: missing } : { ...base, status: "skip", reason: skipReason! };
      checks.push(result);
      emit({ type: "check-end", result });
      continue;
    }
    emit({ type: "check-start", name: property.name, kind: "property", runs: runsFor(property, runs) });
    const result = await runProperty(property, context, {
      runs,
      seed,
      path: options.path,
      timeoutMs,
      shrink: options.shrink,
      onRun: (run, total, shrinking) => emit({ type: "run", name: property.name, run, runs: total, shrinking }),
    });
    if (result.unfinished !== undefined) [stoppedAt, incomplete] = [property.name, result.unfinished];
    checks.push(result);
    emit({ type: "check-end", result });
  }

  const counts = summarizeChecks(checks);
  return {
    subject: subjectName(subject, options),
    kind: resolved.kind,
    seed,
    runs,
    capabilities: tested,
    checks,
    passed: counts.fail === 0 && incomplete === undefined,
    counts,
    ...(incomplete === undefined ? {} : { incomplete }),
    durationMs: performance.now() - started,
  };
}
