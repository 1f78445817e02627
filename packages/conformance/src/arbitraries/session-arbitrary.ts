// A session: a history added one message at a time, with requests for a view at chosen points.
import type { Message } from "@ctxkit/core";
import fc from "fast-check";
import { budgetArbitrary } from "./budget-arbitrary.js";
import { historyArbitrary, type HistoryArbitraryOptions } from "./history-arbitrary.js";

export interface ViewRequest {
  /** The request is made after the first `after` messages of the history were added. */
  readonly after: number;
  readonly budget: number;
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
}

/** A history plus requests at random points: the shape of a real agent loop. */
export function sessionArbitrary(options: SessionArbitraryOptions = {}): fc.Arbitrary<Session> {
  const budget = options.budget ?? budgetArbitrary();
  const early = fc.array(fc.record({ at: fc.nat(), budget }), { maxLength: options.maxEarlyRequests ?? 3 });
  return fc.tuple(historyArbitrary(options), early, budget).map(([history, earlyRequests, finalBudget]) => {
    const requests = earlyRequests
      .map((request) => ({ after: request.at % (history.length + 1), budget: options.sameBudget === true ? finalBudget : request.budget }))
      .sort((first, second) => first.after - second.after);
    return { history, requests: [...requests, { after: history.length, budget: finalBudget }] };
  });
}
