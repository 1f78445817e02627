// recoverOverflow(): after a provider said the view was too long, a strictly smaller valid view; and against a
// provider that counts 1.2–2.0× the module's tokens, a view it accepts, request after request.
import type { ContextManager, Message, RequestOptions } from "@ctxkit/core";
import { isInstruction, isPinned } from "@ctxkit/core/kit";
import fc from "fast-check";
import { sessionArbitrary, type Session } from "../arbitraries/session-arbitrary.js";
import { countViewTokens, DEFAULT_COUNTER_NAME, findCoreCounter } from "../checks/count-view-tokens.js";
import { isBudgetErrorLike } from "../checks/error-kinds.js";
import { isEqualOrShortened } from "../checks/match-history.js";
import { findRequiredMessages } from "../checks/minimal-view.js";
import { expectValidView } from "../checks/view-checks.js";
import { describeError, expectThat, PropertyViolation } from "../checks/violation.js";
import { type ManagerDriver, viewTokens, type RequestOutcome } from "../subject/manager-driver.js";
import { expectStoredHistory } from "./history-checks.js";
import { defineProperty, withManager } from "./property.js";

export type Recovering = ContextManager & { recoverOverflow(error: unknown, options?: RequestOptions): Promise<Message[]> };

/** The error a provider adapter would pass on: OpenAI's wording for an over-long prompt. */
export function createOverflowError(): Error {
  return Object.assign(
    new Error("This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."),
    {
      code: "context_length_exceeded",
    },
  );
}

/** Whether every message of the view is one the minimal view must keep anyway: nothing left to drop. */
function isMinimal(view: readonly Message[], history: readonly Message[]): boolean {
  const required = findRequiredMessages(history);
  return view.every(
    (message) =>
      message.metadata?.ctxkit !== undefined ||
      isInstruction(message) ||
      isPinned(message) ||
      required.some((item) => isEqualOrShortened(message, item.message)),
  );
}

/**
 * A provider that counts more than the module: `ratio` of its tokens for each of the module's. The session
 * it serves: long instructions (`sentences` of them) that no compaction may touch, `turns` short turns before
 * the latest question, and `laterTurns` after it.
 */
export interface ProviderCounting {
  readonly ratio: number;
  readonly sentences: number;
  readonly turns: number;
  readonly laterTurns: number;
}

// In one run of four: a few requests each, but over a store on a server they add up.
const providerCountingArbitrary: fc.Arbitrary<ProviderCounting | null> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 3 },
  {
    arbitrary: fc.record({
      ratio: fc.integer({ min: 12, max: 20 }).map((tenths) => tenths / 10),
      sentences: fc.integer({ min: 30, max: 60 }),
      turns: fc.integer({ min: 2, max: 4 }),
      laterTurns: fc.integer({ min: 1, max: 2 }),
    }),
    weight: 1,
  },
);

export const recoverOverflowProperty = defineProperty<{ session: Session; counting: ProviderCounting | null }>({
  name: "recover-overflow",
  title: "should return a smaller view after a context overflow, and keep serving a provider that counts more",
  invariant:
    "recoverOverflow(error) returns a valid view with fewer tokens than the view that overflowed, unless that view was already minimal, or throws a justified ContextBudgetError; the history is unchanged. Against a provider that counts 1.2–2.0× the module's tokens (and reports it with reportUsage, when the module takes it), the view after a rejection is one the provider accepts, and so is every later one, while its window holds the minimal view.",
  requires: "recoverOverflow",
  arbitrary: () => fc.record({ session: sessionArbitrary({ broken: true, maxEarlyRequests: 1 }), counting: providerCountingArbitrary }),
  async check({ session, counting }, context) {
    await withManager(context, (driver) => checkSmallerView(driver, session));
    if (counting !== null) await withManager(context, (driver) => checkKeepsServing(driver, counting));
  },
});

/** recoverOverflow after the last request of `session`: a smaller valid view, or a justified refusal. */
async function checkSmallerView(driver: ManagerDriver, session: Session): Promise<void> {
  const { outcomes } = await driver.walk(session);
  const overflowed = outcomes.at(-1)!;
  if (overflowed.view === undefined) return;
  const where = `recoverOverflow after ${describeView(overflowed)}`;
  const mark = driver.eventMark();
  let view: Message[];
  try {
    view = await (driver.manager as Recovering).recoverOverflow(createOverflowError(), { tokenBudget: overflowed.budget });
  } catch (error) {
    if (!isBudgetErrorLike(error)) throw new PropertyViolation(`${where} threw ${describeError(error)}`);
    expectThat(error.required > error.budget, `${where} threw ContextBudgetError with required ${error.required} ≤ budget ${error.budget}`);
    await expectStoredHistory(driver, session.history, where);
    return;
  }
  const usage = driver.capabilities.usage.enabled ? await driver.readUsage() : undefined;
  const recovered: RequestOutcome = {
    after: overflowed.after,
    budget: overflowed.budget,
    view,
    usage,
    events: driver.eventsSince(mark),
  };
  expectValidView(recovered, session.history, where);
  const before = viewTokens(overflowed);
  const after = viewTokens(recovered);
  expectThat(
    after < before || isMinimal(overflowed.view, session.history),
    `${where} returned ${after} tokens, not fewer than the ${before} that overflowed, though that view held droppable messages`,
  );
  await expectStoredHistory(driver, session.history, where);
}

const RULE = "keep each build step in order and report what it changed.";

/** The counter the module counts with, when core has it (its usage() names it); otherwise the kit's default. */
function counterOf(usage: { counter?: string } | undefined): string {
  return usage?.counter !== undefined && findCoreCounter(usage.counter) !== undefined ? usage.counter : DEFAULT_COUNTER_NAME;
}

/**
 * A session against a provider that counts `ratio` × the module's tokens. The instructions, which no view may
 * drop, take most of the view (about 80–95%); the provider rejects the view of the latest question, with a
 * window one token below it, which still holds the minimal view with room to spare. A module that shrinks
 * after that rejection in the wrong unit (its own count taken for the provider's, then scaled again), or below
 * the minimal view, refuses here; a healthy one recovers, and serves the later turns.
 */
async function checkKeepsServing(driver: ManagerDriver, counting: ProviderCounting): Promise<void> {
  const { ratio, sentences, turns, laterTurns } = counting;
  const manager = driver.manager as Recovering & { reportUsage?: (usage: { inputTokens: number }) => Promise<void> };
  const history: Message[] = [];
  const add = async (message: Message) => {
    history.push(message);
    await manager.addMessage(structuredClone(message));
  };
  const instructions: Message = {
    role: "system",
    content: Array.from({ length: sentences }, (_, index) => `Rule ${index + 1}: ${RULE}`).join("\n"),
  };
  const question = (turn: number): Message => ({ role: "user", content: `Question ${turn}: what did step ${turn} change?` });
  const answer = (turn: number): Message => ({ role: "assistant", content: `Step ${turn} changed the cache and the route table.` });
  // Roomy: with the whole session at most 40% of it, nothing compacts before the rejection.
  const whole = [instructions, ...Array.from({ length: turns }, (_, turn) => [question(turn + 1), answer(turn + 1)]).flat()];
  const budget = Math.ceil(2.5 * ratio * countViewTokens([...whole, question(turns + 1)]));
  let window = Number.POSITIVE_INFINITY;
  const providerTokens = (outcome: RequestOutcome) => Math.ceil(ratio * viewTokens(outcome));
  const where = (what: string) => `${what} (a provider counting ${ratio}× the module's tokens, budget ${budget})`;
  const accept = async (outcome: RequestOutcome) => {
    if (manager.reportUsage !== undefined) await manager.reportUsage({ inputTokens: providerTokens(outcome) });
  };
  /** Whether the window holds the history's minimal view, as the module counts. */
  const holdsMinimal = (usage: { counter?: string } | undefined) =>
    Math.ceil(
      ratio *
        countViewTokens(
          findRequiredMessages(history).map((item) => item.message),
          counterOf(usage),
        ),
    ) <= window;
  /** The request after a rejection: a view the provider accepts, or a refusal only when the window cannot hold the minimal view. */
  const recover = async (rejected: RequestOutcome, what: string) => {
    const mark = driver.eventMark();
    let view: Message[];
    try {
      view = await manager.recoverOverflow(createOverflowError(), { tokenBudget: budget });
    } catch (error) {
      expectThat(
        isBudgetErrorLike(error) && !holdsMinimal(rejected.usage),
        () => `${where(what)}: recoverOverflow threw ${describeError(error)}, though the window of ${window} tokens holds the minimal view`,
      );
      return false;
    }
    const usage = driver.capabilities.usage.enabled ? await driver.readUsage() : undefined;
    const recovered: RequestOutcome = { after: history.length, budget, view, usage, events: driver.eventsSince(mark) };
    expectValidView(recovered, history, where(what));
    const sent = providerTokens(recovered);
    expectThat(
      sent <= window || !holdsMinimal(usage),
      () => `${where(what)}: the view after the rejection was rejected too: ${sent} tokens in a window of ${window}`,
    );
    await accept(recovered);
    return true;
  };
  const request = async (what: string) => {
    const outcome = await driver.request({ budget }, history.length);
    if (outcome.error !== undefined) {
      expectThat(
        isBudgetErrorLike(outcome.error) && !holdsMinimal(outcome.usage),
        () => `${where(what)} threw ${describeError(outcome.error)}, though the window of ${window} tokens holds the minimal view`,
      );
      return undefined;
    }
    return outcome;
  };

  await add(instructions);
  for (let turn = 1; turn <= turns; turn += 1) {
    await add(question(turn));
    const outcome = await request(`the request of turn ${turn}`);
    if (outcome === undefined) return;
    await accept(outcome);
    await add(answer(turn));
  }
  await add(question(turns + 1));
  const rejected = await request(`the request of turn ${turns + 1}`);
  if (rejected === undefined) return;
  // The provider's window is one token below this view.
  window = providerTokens(rejected) - 1;
  if (!(await recover(rejected, `after the view of turn ${turns + 1} was rejected`))) return;
  for (let turn = turns + 1; turn <= turns + laterTurns; turn += 1) {
    await add(answer(turn));
    await add(question(turn + 1));
    const outcome = await request(`the request of turn ${turn + 1}, after a recovery`);
    if (outcome === undefined) return;
    if (providerTokens(outcome) <= window) await accept(outcome);
    else if (!(await recover(outcome, `after the view of turn ${turn + 1} was rejected`))) return;
  }
}

function describeView(outcome: RequestOutcome): string {
  return `a view of ${outcome.view?.length ?? 0} message(s) for budget ${outcome.budget}`;
}
