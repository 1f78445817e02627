// The shape of a conformance property, and the helpers every property uses to get a fresh manager.
import type { Message } from "@ctxkit/core";
import type fc from "fast-check";
import { sessionArbitrary, type Session } from "../arbitraries/session-arbitrary.js";
import type { CapabilityName, ResolvedCapabilities } from "../subject/capabilities.js";
import { ManagerDriver, type BudgetRegime, type RequestOutcome } from "../subject/manager-driver.js";
import type { ResolvedSubject } from "../subject/subject.js";

export interface PropertyContext {
  readonly subject: ResolvedSubject;
  readonly capabilities: ResolvedCapabilities;
  /** How many `addMessage` calls the concurrency property fires at once. */
  readonly concurrentAdds: number;
  /** What the subject declared beyond what the kit can detect. */
  readonly features?: SubjectFeatures;
  /** Which budgets requests may use: every generated one, or only budgets above the minimal view. Default `any`. */
  readonly regime?: BudgetRegime;
  /** Counts a property keeps across its runs, for the note in its result (e.g. the cache-stable share). */
  readonly tally?: Map<string, number>;
}

/** Adds `count` to a tally key; a no-op when the runner keeps no tally (a replay). */
export function addToTally(context: PropertyContext, key: string, count = 1): void {
  context.tally?.set(key, (context.tally.get(key) ?? 0) + count);
}

export interface SubjectFeatures {
  /** Opening a session id again after its instance was disposed resumes that session. */
  readonly restart?: boolean | undefined;
  /** The module's summary strategy uses the kit's recording summarizer (`settings.summarizer`). */
  readonly summarizer?: boolean | undefined;
  /** Instances opened on one session id at the same time share its store. */
  readonly sharedStore?: boolean | undefined;
}

/** What a property's runs exercise, read from the tally the runner keeps for it. */
export interface PropertyExercise {
  /**
   * The tally key that counts it: one the property adds itself (`addToTally`), or one the runner keeps for
   * every property: `views` (requests that returned a view), `compactions` (pre_compact events heard),
   * `rejected` (calls that rejected), `calls:<method>` (calls of that manager method).
   */
  readonly tally: string;
  /** What it is, in the report's words: "views with a compaction", "offload references retrieved". */
  readonly what: string;
  /** When the runs exercised nothing: why this subject cannot apply (a skip), or undefined (a failure). */
  unreachable?(context: PropertyContext, tally: ReadonlyMap<string, number>): string | undefined;
}

/** The views a property was given: what it exercises when it declares nothing else. */
export const VIEWS_EXERCISED: PropertyExercise = { tally: "views", what: "views returned" };

/** Views the manager had to compact, announced by pre_compact: what the view invariants are about. */
export const COMPACTIONS_EXERCISED: PropertyExercise = { tally: "compactions", what: "views with a compaction" };

export interface ConformanceProperty<Input = unknown> {
  /** Stable kebab-case id, used by `only`, in reports and in counterexamples. */
  readonly name: string;
  /** A short `should …` phrase, used as the test name. */
  readonly title: string;
  /** The invariant in one sentence, as the README states it. */
  readonly invariant: string;
  /** Skipped (and reported as skipped) unless the manager has this capability. */
  readonly requires?: CapabilityName;
  /** Why the property cannot run against this manager, beyond a missing `requires`; undefined when it can. */
  skipReason?(context: PropertyContext): string | undefined;
  /**
   * What the runs must reach for a pass to mean something, counted over all of them. A property that
   * declares none is counted by the views it was given. Zero is a failure ("never exercised: …"), unless
   * `exercises.unreachable` says this subject cannot produce it: then the property is skipped, with why.
   */
  readonly exercises?: PropertyExercise;
  /** A line for the report from the tally the runs kept, e.g. "cache-stable on 93% of 412 requests". */
  describeTally?(tally: ReadonlyMap<string, number>): string | undefined;
  /** Share of the configured runs: properties that do much more work per run use fewer. Default 1. */
  readonly runsFactor?: number;
  arbitrary(context: PropertyContext): fc.Arbitrary<Input>;
  /** Throws a PropertyViolation (or whatever the manager threw) when the invariant does not hold. */
  check(input: Input, context: PropertyContext): Promise<void>;
}

/** Keeps each property's input type while listing them together. */
export function defineProperty<Input>(property: ConformanceProperty<Input>): ConformanceProperty<Input> {
  return property;
}

/** Runs `body` against a fresh manager and always disposes of it. */
export async function withManager<T>(context: PropertyContext, body: (driver: ManagerDriver) => Promise<T>): Promise<T> {
  const instance = await context.subject.create();
  try {
    return await body(new ManagerDriver(instance, context.capabilities, context.regime));
  } finally {
    await instance.dispose();
  }
}

/**
 * A property over a broken-or-not session walked request by request: `checkOutcome` runs on every
 * request's outcome, with the history as it stood then.
 */
export function defineRequestProperty(
  property: Pick<ConformanceProperty, "name" | "title" | "invariant" | "exercises">,
  checkOutcome: (outcome: RequestOutcome, history: readonly Message[]) => void,
): ConformanceProperty<Session> {
  return defineProperty({
    // A view that kept the whole history proves little about pairs, order or budgets: compacted ones do.
    exercises: COMPACTIONS_EXERCISED,
    ...property,
    arbitrary: () => sessionArbitrary({ broken: true }),
    async check(session, context) {
      await withManager(context, async (driver) => {
        const { outcomes } = await driver.walk(session);
        for (const outcome of outcomes) checkOutcome(outcome, session.history.slice(0, outcome.after));
      });
    },
  });
}
