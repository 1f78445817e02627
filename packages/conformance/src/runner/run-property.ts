// Runs one property with fast-check: seeded, shrunk, and turned into a CheckResult.
import fc from "fast-check";
import { describeError, PropertyViolation } from "../checks/violation.js";
import { addToTally, VIEWS_EXERCISED, type ConformanceProperty, type PropertyContext } from "../properties/property.js";
import type { BudgetRegime } from "../subject/manager-driver.js";
import { describeFix } from "./fix-hints.js";
import { createPendingCalls, observeSubject } from "./observe-subject.js";
import type { CheckResult, Exercised, PropertyFailure } from "./report.js";
import { ConformanceTimeoutError, withStepTimeout } from "./step-timeout.js";

export interface PropertyRunOptions {
  readonly runs: number;
  readonly seed: number;
  /** Replays one case: the `path` of a counterexample, with its seed. */
  readonly path?: string | undefined;
  /**
   * Longest time one run may take. A run that takes longer fails the property, which stops there (its
   * result is `unfinished`): the hung call is abandoned, and later runs would wait as long again.
   */
  readonly timeoutMs: number;
  /** Stop at the first failure instead of shrinking it: detection only, for sweeps over many seeds. Default true. */
  readonly shrink?: boolean | undefined;
  /** Called before each run, with whether fast-check is shrinking a failure. */
  readonly onRun?: ((run: number, total: number, shrinking: boolean) => void) | undefined;
}

/** How many runs a property gets: its share of the configured runs, at least one. */
export function runsFor(property: ConformanceProperty, runs: number): number {
  return Math.max(1, Math.round(runs * (property.runsFactor ?? 1)));
}

function describeFailure(error: unknown): string {
  if (error instanceof PropertyViolation) return error.message;
  if (error instanceof ConformanceTimeoutError) return error.message;
  return `the manager threw ${describeError(error)}`;
}

/**
 * Runs the property over every budget, and, when it fails, again with every budget above the minimal
 * view: one trivial failure ("a 4-token system message at budget 1") must not mask another. Each
 * distinct failure is reported, shrunk, with a sentence on what to fix.
 */
export async function runProperty(
  property: ConformanceProperty,
  input: PropertyContext,
  options: PropertyRunOptions,
): Promise<CheckResult> {
  const regime = input.regime ?? "any";
  const first = await runPropertyOnce(property, { ...input, regime }, options);
  if (first.status !== "fail" || first.counterexample === undefined) return first;
  const primary = toFailure(first, regime);
  // A replay runs the one case it was given; a detection sweep needs only the first failure; a run that
  // hung ends the property: a second pass would wait as long again.
  if (regime !== "any" || options.path !== undefined || options.shrink === false || first.unfinished !== undefined)
    return withFailures(first, [primary]);
  // Budgets above the minimal view, searching for a failure of another kind than the first.
  const roomy = await runPropertyOnce(property, { ...input, regime: "above-minimal" }, options, primary.failureKind);
  if (roomy.status !== "fail" || roomy.counterexample === undefined) return withFailures(first, [primary]);
  const secondary = toFailure(roomy, "above-minimal");
  const failures = secondary.failureKind === primary.failureKind ? [primary] : [primary, secondary];
  return withFailures({ ...first, runs: (first.runs ?? 0) + (roomy.runs ?? 0) }, failures);
}

type ClassifiedFailure = PropertyFailure & { readonly failureKind: string };

function toFailure(result: CheckResult, regime: BudgetRegime): ClassifiedFailure {
  const counterexample = regime === "any" ? result.counterexample! : { ...result.counterexample!, regime };
  return { reason: result.reason ?? "", counterexample, ...describeFix(result.reason) };
}

function withFailures(result: CheckResult, failures: readonly ClassifiedFailure[]): CheckResult {
  const [primary] = failures;
  return {
    ...result,
    ...(primary === undefined ? {} : { counterexample: primary.counterexample, fix: primary.fix }),
    failures: failures.map(({ reason, counterexample, fix }) => ({ reason, counterexample, fix })),
  };
}

/** The exercise rule: what the runs counted, and the verdict when they counted nothing. */
function judgeExercise(
  property: ConformanceProperty,
  context: PropertyContext,
  tally: ReadonlyMap<string, number>,
): { readonly exercised?: Exercised; readonly skip?: string; readonly fail?: string } {
  const declared = property.exercises ?? VIEWS_EXERCISED;
  // Compactions are counted from the manager's events: when they cannot be heard (a factory with no
  // subscribe), the views the property was given are the most that can be counted.
  const exercise = declared.tally === "compactions" && !tally.has("compactions") ? VIEWS_EXERCISED : declared;
  const count = tally.get(exercise.tally) ?? 0;
  const exercised = { what: exercise.what, count };
  if (count > 0) return { exercised };
  const unreachable = exercise.unreachable?.(context, tally);
  if (unreachable !== undefined) return { exercised, skip: unreachable };
  return {
    exercised,
    fail:
      `never exercised: ${exercise.what} (none in ${tally.get("runs") ?? 0} runs), so its passing runs checked nothing. ` +
      `Make the module reach it under the generated sessions, or raise the runs if they were few.`,
  };
}

/**
 * Runs the property once over its runs. With `besides`, a run that fails with that kind of failure
 * counts as passing: the search goes on for a failure of another kind, which it would otherwise hide.
 */
async function runPropertyOnce(
  property: ConformanceProperty,
  input: PropertyContext,
  options: PropertyRunOptions,
  besides?: string,
): Promise<CheckResult> {
  const started = performance.now();
  const tally = new Map<string, number>();
  const pending = createPendingCalls();
  const context: PropertyContext = { ...input, subject: observeSubject(input.subject, { pending, tally }), tally };
  const total = runsFor(property, options.runs);
  let run = 0;
  let shrinking = false;
  // The first run that outran the timeout. Its work cannot be cancelled, only abandoned, and every later
  // case would wait as long again: the runs after it pass at once, so fast-check ends without shrinking.
  let hung: ConformanceTimeoutError | undefined;
  const predicate = fc.asyncProperty(property.arbitrary(context), async (input) => {
    if (hung !== undefined) return;
    options.onRun?.(++run, total, shrinking);
    addToTally(context, "runs");
    try {
      await withStepTimeout(property.check(input, context), {
        step: `a run of ${property.name}`,
        timeoutMs: options.timeoutMs,
        pending: pending.list,
      });
    } catch (error) {
      if (error instanceof ConformanceTimeoutError) hung = error;
      else if (besides !== undefined && describeFix(describeFailure(error)).failureKind === besides) return;
      shrinking = true;
      throw error;
    }
  });
  let details: Awaited<ReturnType<typeof fc.check<[unknown]>>>;
  try {
    details = await fc.check(predicate, {
      numRuns: total,
      seed: options.seed,
      ...(options.path === undefined ? {} : { path: options.path }),
      endOnFailure: options.shrink === false,
    });
  } catch (error) {
    // fast-check itself rejects a path that does not lead to a case of this property's arbitrary.
    const reason = `could not run: ${describeError(error)}`;
    return {
      name: property.name,
      kind: "property",
      description: property.invariant,
      runs: run,
      durationMs: performance.now() - started,
      status: "fail",
      reason,
    };
  }
  const note = property.describeTally?.(tally);
  // A replay runs one chosen case, which need not exercise anything.
  const exercise = options.path === undefined ? judgeExercise(property, input, tally) : {};
  const base = {
    name: property.name,
    kind: "property" as const,
    description: property.invariant,
    runs: run,
    durationMs: performance.now() - started,
    ...(note === undefined ? {} : { note }),
    ...(exercise.exercised === undefined ? {} : { exercised: exercise.exercised }),
  };
  if (!details.failed) {
    if (exercise.fail !== undefined) return { ...base, status: "fail", reason: exercise.fail };
    if (exercise.skip !== undefined) return { ...base, status: "skip", reason: exercise.skip };
    return { ...base, status: "pass" };
  }
  if (details.counterexample === null) {
    return {
      ...base,
      status: "fail",
      reason: details.interrupted ? "interrupted before any failure" : "fast-check gave up generating inputs",
    };
  }
  return {
    ...base,
    status: "fail",
    reason: describeFailure(details.errorInstance),
    ...(hung === undefined ? {} : { unfinished: hung.message }),
    counterexample: {
      property: property.name,
      seed: details.seed,
      path: details.counterexamplePath,
      shrinks: details.numShrinks,
      input: details.counterexample[0],
    },
  };
}
