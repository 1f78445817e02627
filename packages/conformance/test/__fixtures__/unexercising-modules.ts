// Broken modules that pass every run they are given and still check nothing: the runs never reach what the
// property is about. Only the "never exercised" rule catches them.
import { ContextBudgetError, tiktokenCounter, type Message } from "@ctxkit/core";
import { countMessageTokens, resolveBudget } from "@ctxkit/core/kit";
import { createBrokenModule } from "./wrap-simple-context.js";

const counter = tiktokenCounter("o200k_base");
// Views reuse the stored (frozen) messages: each is counted once, as a manager would.
const counted = new WeakMap<object, number>();
const tokensOf = (message: Message) => {
  const known = counted.get(message);
  if (known !== undefined) return known;
  const tokens = countMessageTokens(message, counter);
  counted.set(message, tokens);
  return tokens;
};

/**
 * Never compacts: a view that would need a compaction is refused with a ContextBudgetError that truly
 * counts the whole history, so every view it does return keeps the history whole and every refusal
 * claims required > budget. Properties about compactions then pass over views that never had one.
 */
export const neverCompacts = createBrokenModule("never-compacts", {
  methods: (inner) => ({
    async getMessagesForRequest(options = {}) {
      options.signal?.throwIfAborted();
      const budget = await resolveBudget(options);
      // The whole view, asked for with room for everything: nothing is compacted, nothing announced.
      const { provider: _provider, ...rest } = options;
      const whole = await inner.getMessagesForRequest({ ...rest, tokenBudget: Number.MAX_SAFE_INTEGER });
      const tokens = whole.reduce((sum, message) => sum + tokensOf(message), 0);
      if (budget !== undefined && tokens > budget) throw new ContextBudgetError(budget, tokens);
      return whole;
    },
  }),
});
