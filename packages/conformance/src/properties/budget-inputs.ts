// A budget that is not a count (NaN, negative, a string, an object, provider info of the same kinds) is refused, never obeyed as if it were one.
import type { Provider, RequestOptions } from "@ctxkit/core";
import { countMessageTokens } from "@ctxkit/core/kit";
import { historyArbitrary } from "../arbitraries/history-arbitrary.js";
import { findCoreCounter, DEFAULT_COUNTER_NAME } from "../checks/count-view-tokens.js";
import { isContextErrorLike } from "../checks/error-kinds.js";
import { expectSameHistory } from "../checks/expect-same-history.js";
import { describeError, expectThat } from "../checks/violation.js";
import { defineProperty, withManager } from "./property.js";

interface BadInput {
  readonly reason: string;
  readonly options: RequestOptions;
}

const provider = (defaults: Record<string, unknown>): Provider => ({ name: "odd", getInfo: () => ({ defaults }) as never });

/** Every kind, in every run: a budget input is either a count or it is not. */
const BAD_INPUTS: readonly BadInput[] = [
  { reason: "tokenBudget NaN", options: { tokenBudget: Number.NaN } },
  { reason: "tokenBudget -100", options: { tokenBudget: -100 } },
  { reason: "tokenBudget Infinity", options: { tokenBudget: Number.POSITIVE_INFINITY } },
  { reason: 'tokenBudget "4000"', options: { tokenBudget: "4000" as unknown as number } },
  { reason: "tokenBudget {}", options: { tokenBudget: {} as unknown as number } },
  { reason: "contextWindow NaN", options: { provider: provider({ contextWindow: Number.NaN }) } },
  { reason: "contextWindow -1", options: { provider: provider({ contextWindow: -1 }) } },
  { reason: 'contextWindow "8k"', options: { provider: provider({ contextWindow: "8k" }) } },
  { reason: "maxOutputTokens NaN", options: { provider: provider({ contextWindow: 100_000, maxOutputTokens: Number.NaN }) } },
  { reason: "maxOutputTokens -90000", options: { provider: provider({ contextWindow: 10_000, maxOutputTokens: -90_000 }) } },
  { reason: "a provider without getInfo", options: { provider: { name: "bare" } as unknown as Provider } },
];

export const budgetInputsProperty = defineProperty({
  name: "budget-inputs",
  title: "should refuse a budget input that is not a count with a typed error",
  invariant:
    "A tokenBudget, contextWindow or maxOutputTokens that is NaN, negative, infinite or not a number, or a provider without getInfo, gives a ctxkit error (or, for a window it can read, a view within it), and changes nothing.",
  exercises: { tally: "calls:getMessagesForRequest", what: "requests with odd budget inputs" },
  runsFactor: 0.2,
  arbitrary: () => historyArbitrary({ maxSegments: 6 }),
  async check(history, context) {
    await withManager(context, async (driver) => {
      for (const message of structuredClone(history)) await driver.manager.addMessage(message);
      const counter = findCoreCounter(DEFAULT_COUNTER_NAME)!;
      for (const { reason, options } of BAD_INPUTS) {
        const outcome = await driver.manager.getMessagesForRequest(options).then(
          (view) => ({ view }),
          (error: unknown) => ({ error }),
        );
        if ("error" in outcome) {
          expectThat(
            isContextErrorLike(outcome.error),
            () => `${reason}: the request failed with ${describeError(outcome.error)}, not a ctxkit error`,
          );
          continue;
        }
        // A view is acceptable only within a window the input can honestly be read as; NaN and negatives have none.
        const tokens = outcome.view.reduce((sum, message) => sum + countMessageTokens(message, counter), 0);
        expectThat(
          reason === "maxOutputTokens -90000" && tokens <= 10_000,
          () => `${reason}: the request returned a ${tokens}-token view instead of a ctxkit error`,
        );
      }
      expectSameHistory(await driver.manager.getMessages(), history, "after requests with bad budget inputs");
    });
  },
});
