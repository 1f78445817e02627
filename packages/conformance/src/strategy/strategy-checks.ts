// What every pipeline strategy promises about the draft it returns, checked on generated drafts.
import { checkToolPairs, countMessageTokens, isSynthetic, type Message } from "@ctxkit/core";
import {
  createMemoryStateStore,
  createViewDraft,
  deepFreeze,
  isProtectedEntry,
  type Strategy,
  type StrategyContext,
  type StrategyResult,
  type ViewDraft,
  type ViewEntry,
} from "@ctxkit/core/kit";
import fc from "fast-check";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { historyArbitrary } from "../arbitraries/history-arbitrary.js";
import { DEFAULT_COUNTER_NAME, findCoreCounter } from "../checks/count-view-tokens.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { isEqualOrShortened } from "../checks/match-history.js";
import { describeError, expectThat, preview } from "../checks/violation.js";
import { createSharedStrategyState } from "./shared-strategy-state.js";

export interface StrategyInput {
  readonly history: Message[];
  readonly budget: number;
  readonly protectFirst: number;
}

/** A history of well-formed units, a budget weighted toward where strategies run, and a protected prefix. */
export function strategyInputArbitrary(): fc.Arbitrary<StrategyInput> {
  return fc.record({
    history: historyArbitrary({ maxSegments: 10 }),
    budget: budgetArbitrary({ max: 32_768 }),
    protectFirst: fc.nat({ max: 3 }),
  });
}

const counter = () => findCoreCounter(DEFAULT_COUNTER_NAME)!;

/** The draft a manager would hand the first strategy: every history message, frozen, counted once. */
export function draftOf(history: readonly Message[]): ViewDraft {
  const frozen = deepFreeze(structuredClone(history) as Message[]);
  return createViewDraft(
    frozen.map(
      (message, index): ViewEntry => ({ message, tokens: countMessageTokens(message, counter()), source: { kind: "history", index } }),
    ),
  );
}

function contextFor(input: StrategyInput, history: readonly Message[]): StrategyContext {
  return {
    budget: input.budget,
    target: Math.floor(input.budget * 0.6),
    counter: counter(),
    history,
    signal: new AbortController().signal,
    protectFirst: input.protectFirst,
    state: createMemoryStateStore(),
    emit: () => {},
    countMessage: (message) => countMessageTokens(message, counter()),
  };
}

/** The part of a result that must repeat for the same input: messages, sources and tokens. */
const comparable = (view: ViewDraft) =>
  view.entries.map((entry) => ({ message: entry.message, source: entry.source, tokens: entry.tokens }));

/** Applies the strategy to the draft of `input.history`, twice on fresh state, and checks what it returned. */
export async function checkStrategy(createStrategy: () => Strategy, input: StrategyInput): Promise<void> {
  const history = deepFreeze(structuredClone(input.history));
  const draft = draftOf(history);
  const before = JSON.stringify(draft);
  const first = await createStrategy().apply(draft, contextFor(input, history));
  const second = await createStrategy().apply(draftOf(history), contextFor(input, history));
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
    const isSame = isDeepEqual(entry.message, original);
    // The documented edits shorten a message (a placeholder, a head and tail) and say so on the entry.
    expectThat(
      isSame || (isEqualOrShortened(entry.message, original) && entry.edit !== undefined),
      () => `${where} rewrites history message ${entry.source.index} beyond a recorded shortening: ${preview(entry.message)}`,
    );
  }

  await checkSharedState(createStrategy, input, history, view);

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
}

/**
 * Two workers of one shared session apply the strategy at once, each over its own copy of the session's
 * state, which stores a write only over the version that copy last saw (as PostgreSQL and Redis do). Each
 * must return what the strategy returns alone: a lost compare-and-set (`ContextStateConflictError`) is the
 * strategy's to handle, and neither a thrown error nor a compaction given up (a strategy_error) is handling it.
 */
async function checkSharedState(createStrategy: () => Strategy, input: StrategyInput, history: readonly Message[], alone: ViewDraft) {
  const workers = [createStrategy(), createStrategy()];
  const shared = createSharedStrategyState(workers[0]!.name);
  // Both copies are taken before either worker runs, so neither sees what the other writes.
  const states = workers.map(() => shared.writer());
  const reported: unknown[] = [];
  const outcomes = await Promise.allSettled(
    workers.map((strategy, worker) =>
      strategy.apply(draftOf(history), {
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
