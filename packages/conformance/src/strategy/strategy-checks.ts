// What every pipeline strategy promises about the draft it returns, checked on generated drafts.
import { type Message, parseMessage } from "@ctxkit/core";
import {
  checkToolPairs,
  countMessageTokens,
  isSynthetic,
  createViewDraft,
  deepFreeze,
  isProtectedEntry,
  type Strategy,
  type StrategyResult,
  type ViewDraft,
  type ViewEntry,
} from "@ctxkit/core/kit";
import fc from "fast-check";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { historyWithNonTextPartsArbitrary } from "../arbitraries/content-part-arbitraries.js";
import { DEFAULT_COUNTER_NAME, findCoreCounter } from "../checks/count-view-tokens.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { describeError, expectThat, preview } from "../checks/violation.js";
import { createStrategyContext } from "./create-strategy-context.js";
import { createSharedStrategyState } from "./shared-strategy-state.js";
import { findShorteningProblem } from "./shortened-in-tokens.js";

export interface StrategyInput {
  readonly history: Message[];
  readonly budget: number;
  readonly protectFirst: number;
}

const counter = () => findCoreCounter(DEFAULT_COUNTER_NAME)!;

/** Each generated message's tokens, counted once however many drafts are made of it. */
const counted = new WeakMap<Message, number>();

function tokensOf(message: Message): number {
  let tokens = counted.get(message);
  if (tokens === undefined) {
    tokens = countMessageTokens(message, counter());
    counted.set(message, tokens);
  }
  return tokens;
}

/**
 * A history whose user messages and tool results often hold images, audio, files and unknown typed parts, a
 * protected prefix, and a budget. Three times in four the budget is 30% to 150% of the history's tokens, so
 * the draft is over the target (60% of the budget) and a strategy has something to do; otherwise it is drawn
 * on its own, from absurd (nothing fits) to generous (nothing needs doing).
 */
export function strategyInputArbitrary(): fc.Arbitrary<StrategyInput> {
  const pressure = fc.oneof(
    { withCrossShrink: true },
    { arbitrary: budgetArbitrary({ max: 32_768 }).map((budget) => ({ budget })), weight: 1 },
    { arbitrary: fc.integer({ min: 30, max: 150 }).map((percent) => ({ percent })), weight: 3 },
  );
  return fc
    .record({ history: historyWithNonTextPartsArbitrary({ maxSegments: 10 }), pressure, protectFirst: fc.nat({ max: 3 }) })
    .map(({ history, pressure, protectFirst }) => {
      if ("budget" in pressure) return { history, budget: pressure.budget, protectFirst };
      const tokens = history.reduce((total, message) => total + tokensOf(message), 0);
      return { history, budget: Math.max(1, Math.floor((tokens * pressure.percent) / 100)), protectFirst };
    });
}

/**
 * The draft a manager would hand the first strategy: every history message, frozen, counted once. With
 * `counts`, each message's tokens are taken from there (the counts of the messages it was cloned from).
 */
export function draftOf(history: readonly Message[], counts?: readonly number[]): ViewDraft {
  const frozen = deepFreeze(structuredClone(history) as Message[]);
  return createViewDraft(
    frozen.map(
      (message, index): ViewEntry => ({
        message,
        tokens: counts?.[index] ?? countMessageTokens(message, counter()),
        source: { kind: "history", index },
      }),
    ),
  );
}

function contextFor(input: StrategyInput, history: readonly Message[]) {
  return createStrategyContext({ budget: input.budget, history, counter: counter(), protectFirst: input.protectFirst });
}

/** What one run tells about the strategy besides pass or fail: whether it had work, and whether it did any. */
export interface StrategyRunOutcome {
  readonly applied: boolean;
  /** The draft it was given was over the target. */
  readonly overTarget: boolean;
  /** The draft's tokens. */
  readonly tokens: number;
}

/** The part of a result that must repeat for the same input: messages, sources and tokens. */
const comparable = (view: ViewDraft) =>
  view.entries.map((entry) => ({ message: entry.message, source: entry.source, tokens: entry.tokens }));

/** Applies the strategy to the draft of `input.history`, twice on fresh state, and checks what it returned. */
export async function checkStrategy(createStrategy: () => Strategy, input: StrategyInput): Promise<StrategyRunOutcome> {
  const counts = input.history.map(tokensOf);
  const history = deepFreeze(structuredClone(input.history));
  const draft = draftOf(history, counts);
  const context = contextFor(input, history);
  const before = JSON.stringify(draft);
  const first = await createStrategy().apply(draft, context);
  const second = await createStrategy().apply(draftOf(history, counts), contextFor(input, history));
  expectThat(JSON.stringify(draft) === before, "the strategy changed the draft it was given");
  const view = first.view;
  expectThat(
    Array.isArray(view?.entries) && typeof first.applied === "boolean",
    () => `the strategy returned ${preview(first)}, not a StrategyResult`,
  );
  expectThat(
    isDeepEqual(comparable(view), comparable(second.view)),
    () => `the same input gave two different results: ${preview(comparable(view), 300)} vs ${preview(comparable(second.view), 300)}`,
  );
  expectThat(first.applied || isDeepEqual(comparable(view), comparable(draft)), "the strategy changed the draft but said applied: false");
  const sum = view.entries.reduce((total, entry) => total + entry.tokens, 0);
  expectThat(view.tokens === sum, `the returned draft says ${view.tokens} tokens, its entries sum to ${sum}`);

  let lastIndex = -1;
  for (const [position, entry] of view.entries.entries()) {
    const where = `entry ${position}`;
    expectThat(
      entry.tokens === countMessageTokens(entry.message, counter()),
      () => `${where} says ${entry.tokens} tokens, its message counts ${countMessageTokens(entry.message, counter())}`,
    );
    if (entry.source.kind === "synthetic") {
      expectThat(
        isSynthetic(entry.message),
        () => `${where} is synthetic but its message carries no metadata.ctxkit: ${preview(entry.message)}`,
      );
      continue;
    }
    const original = history[entry.source.index];
    expectThat(original !== undefined, `${where} claims history index ${entry.source.index}, which does not exist`);
    expectThat(
      entry.source.index > lastIndex,
      `${where} (history ${entry.source.index}) comes after history ${lastIndex}: out of order or repeated`,
    );
    lastIndex = entry.source.index;
    if (isDeepEqual(entry.message, original)) continue;
    // The documented edits shorten a message (a placeholder, a head and tail, a part left out) and say so on the entry.
    const problem =
      entry.edit === undefined ? "no edit is recorded on the entry" : findShorteningProblem(entry.message, original!, context.countMessage);
    expectThat(
      problem === undefined,
      () => `${where} rewrites history message ${entry.source.index} beyond a recorded shortening (${problem}): ${preview(entry.message)}`,
    );
    const invalid = findInvalidMessage(entry.message);
    expectThat(invalid === undefined, () => `${where} holds a message no manager would accept (${invalid}): ${preview(entry.message)}`);
  }

  await checkSharedState(createStrategy, input, history, view, counts);

  const violations = checkToolPairs(view.entries.map((entry) => entry.message));
  expectThat(violations.length === 0, () => `the returned draft breaks tool units: ${preview(violations, 300)}`);

  for (let index = 0; index < draft.entries.length; index += 1) {
    const protection = isProtectedEntry(draft, index, input.protectFirst);
    const kept = view.entries.find((entry) => entry.source.kind === "history" && entry.source.index === index);
    if (!protection.canDrop)
      expectThat(
        kept !== undefined || coveredBySummary(view, index),
        () => `protected history message ${index} was dropped: ${preview(history[index])}`,
      );
    if (!protection.canAlter && kept !== undefined)
      expectThat(
        isDeepEqual(kept.message, history[index]),
        () => `history message ${index}, which may not be altered, was: ${preview(kept.message)}`,
      );
  }
  return { applied: first.applied, overTarget: draft.tokens > context.target, tokens: draft.tokens };
}

/** Why a changed message would be refused at a manager's door (`parseMessage`), or undefined. */
function findInvalidMessage(message: Message): string | undefined {
  try {
    parseMessage(message);
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}

/**
 * Two workers of one shared session apply the strategy at once, each over its own copy of the session's
 * state, which stores a write only over the version that copy last saw (as PostgreSQL and Redis do). Each
 * must return what the strategy returns alone: a lost compare-and-set (`ContextStateConflictError`) is the
 * strategy's to handle, and neither a thrown error nor a compaction given up (a strategy_error) is handling it.
 */
async function checkSharedState(
  createStrategy: () => Strategy,
  input: StrategyInput,
  history: readonly Message[],
  alone: ViewDraft,
  counts: readonly number[],
) {
  const workers = [createStrategy(), createStrategy()];
  const shared = createSharedStrategyState(workers[0]!.name);
  // Both copies are taken before either worker runs, so neither sees what the other writes.
  const states = workers.map(() => shared.writer());
  const reported: unknown[] = [];
  const outcomes = await Promise.allSettled(
    workers.map((strategy, worker) =>
      strategy.apply(draftOf(history, counts), {
        ...contextFor(input, history),
        state: states[worker]!,
        emit: (event, payload) => void (event === "context:strategy_error" && reported.push((payload as { error: unknown }).error)),
      }),
    ),
  );
  const where = "applied at once by two workers over one shared session's state (compare-and-set, as PostgreSQL and Redis store it)";
  for (const outcome of outcomes) {
    const problem = outcome.status === "rejected" ? `threw ${describeError(outcome.reason)}` : undefined;
    expectThat(problem === undefined, () => `${where}, the strategy ${problem}; a lost compare-and-set is the strategy's to handle`);
    const view = (outcome as PromiseFulfilledResult<StrategyResult>).value.view;
    expectThat(
      isDeepEqual(comparable(view), comparable(alone)),
      () =>
        `${where}, the strategy returned another result than alone${reported.length === 0 ? "" : ` and reported ${reported.map(describeError).join("; ")}`}: ${preview(comparable(view), 300)}`,
    );
  }
}

/** A current-turn message may be stood for by a summary that declares it covers it. */
function coveredBySummary(view: ViewDraft, index: number): boolean {
  return view.entries.some((entry) => {
    const summary = entry.message.metadata?.ctxkit?.["summary"] as { coveredThrough?: unknown } | undefined;
    return typeof summary?.coveredThrough === "number" && summary.coveredThrough >= index;
  });
}
