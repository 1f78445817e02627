// Context modules whose overflow recovery shrinks wrongly against a provider that counts more than they do.
import type { ProviderUsage, RequestOptions } from "@ctxkit/core";
import { createBrokenModule } from "./wrap-simple-context.js";

/**
 * Takes its own count of the rejected view for the provider's and shrinks that to 75%; its calibration then
 * scales the budget down a second time (to about 36% of the rejected size against a 2× provider), below the
 * minimal view the provider's window holds.
 */
export const shrinksInItsOwnTokens = createBrokenModule("shrinks-in-its-own-tokens", {
  methods: (inner) =>
    Object.assign(
      {
        recoverOverflow: async (_error: unknown, options: RequestOptions = {}) => {
          const rejected = (await inner.usage())?.tokens ?? 0;
          return inner.getMessagesForRequest({ ...options, tokenBudget: Math.floor(0.75 * rejected) });
        },
      },
      { reportUsage: (usage: ProviderUsage) => inner.reportUsage(usage) },
    ),
});
