// A session: a history added one message at a time, with requests for a view at chosen points.
import type { Message } from "@ctxkit/core";
import fc from "fast-check";
import { budgetSpecificationArbitrary, resolveBudget, type BudgetSpecification } from "./budget-specification.js";
import { historyArbitrary, type HistoryArbitraryOptions } from "./history-arbitrary.js";

/** A provider's advertised limits; the budget it implies is `contextWindow - maxOutputTokens` at most. */
export interface ProviderLimits {
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
}

export interface ViewRequest {
  /** The request is made after the first `after` messages of the history were added. */
  readonly after: number;
  /** The most tokens the view may have: the explicit `tokenBudget`, or what the provider leaves. */
  readonly budget: number;
  /** When present, the budget is not passed: the request names this provider instead. */
  readonly provider?: ProviderLimits;
}

export interface Session {
  readonly history: Message[];
  /** Ordered by `after`; the last one is always made after the whole history. */
  readonly requests: ViewRequest[];
}

export interface SessionArbitraryOptions extends HistoryArbitraryOptions {
  /** Most requests before the final one. Default 3. */
  readonly maxEarlyRequests?: number;
  /** Every request uses this one budget (prefix stability compares views of one budget). Default false. */
  readonly sameBudget?: boolean;
  readonly budget?: fc.Arbitrary<number>;
  /** How budgets are generated, relative to the history or not; `budget` (absolute) wins when both are given. */
  readonly budgetSpecification?: fc.Arbitrary<BudgetSpecification>;
  /**
   * Request a view after every message from a generated point on, instead of at a few random points:
   * a manager's threshold is then crossed by one message at a time, with a request on each side.
   */
  readonly everyMessage?: boolean;
  /** Let some requests give a provider instead of an explicit budget. Default true. */
  readonly providers?: boolean;
}

/**
 * How a request states its budget: usually `tokenBudget`, sometimes a provider whose window minus its
 * output reservation equals the budget (the module may subtract its own safety margin on top).
 */
export function maxOutputTokensArbitrary(withProviders: boolean): fc.Arbitrary<number | undefined> {
  if (!withProviders) return fc.constant(undefined);
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: 4_096 }), weight: 1 });
}

export function toRequest(after: number, budget: number, maxOutputTokens: number | undefined): ViewRequest {
  if (maxOutputTokens === undefined) return { after, budget };
  return { after, budget, provider: { contextWindow: budget + maxOutputTokens, maxOutputTokens } };
}

/** A history plus requests at random points: the shape of a real agent loop. */
export function sessionArbitrary(options: SessionArbitraryOptions = {}): fc.Arbitrary<Session> {
  const budget =
    options.budget === undefined
      ? (options.budgetSpecification ?? budgetSpecificationArbitrary())
      : options.budget.map((absolute) => ({ absolute }));
  const source = maxOutputTokensArbitrary(options.providers !== false);
  const early = fc.array(fc.record({ at: fc.nat(), budget, source }), { maxLength: options.maxEarlyRequests ?? 3 });
  return fc.tuple(historyArbitrary(options), early, budget, source).map(([history, earlyRequests, finalBudget, finalSource]) => {
    // With one budget for all, the final budget, resolved against the whole history, applies everywhere.
    const sharedBudget = resolveBudget(finalBudget, history);
    const request = (after: number, specification: BudgetSpecification, maxOutputTokens: number | undefined) =>
      toRequest(after, options.sameBudget === true ? sharedBudget : resolveBudget(specification, history.slice(0, after)), maxOutputTokens);
    const dense =
      options.everyMessage === true && earlyRequests.length > 0
        ? Array.from({ length: Math.max(0, history.length - 1) }, (_, offset) => ({
            ...earlyRequests[offset % earlyRequests.length]!,
            at: offset + 1,
          }))
        : earlyRequests;
    // Counted back from the end, so a request stays as far from it while a failure shrinks by dropping older
    // messages: counted from the start, dropping one moved it, and the shrink stopped at a needlessly long history.
    const requests = dense
      .map(({ at, budget: specification, source: maxOutputTokens }) =>
        request(history.length - (at % (history.length + 1)), specification, maxOutputTokens),
      )
      .sort((first, second) => first.after - second.after);
    return { history, requests: [...requests, request(history.length, finalBudget, finalSource)] };
  });
}
