// Which token budget a view must fit, in the contract's order of precedence.
import type { Provider } from "../protocol.js";

export interface BudgetOptions {
  /** An explicit budget from the request: wins when given. */
  tokenBudget?: number | undefined;
  provider?: Provider | undefined;
  /** Kept free of the provider's window besides the output reservation. */
  safetyMargin?: number | undefined;
  /** The module's configured budget: the fallback, and always a cap. */
  maxTokens?: number | undefined;
}

export const DEFAULT_SAFETY_MARGIN = 1_000;

/**
 * Resolves the budget: an explicit `tokenBudget`, else the provider's
 * `contextWindow - maxOutputTokens - safetyMargin`, else `maxTokens`; capped by `maxTokens`.
 * Returns `undefined` when nothing gives a budget.
 */
export async function resolveBudget(options: BudgetOptions): Promise<number | undefined> {
  const { tokenBudget, provider, maxTokens } = options;
  let budget: number | undefined;
  if (tokenBudget !== undefined) {
    budget = tokenBudget;
  } else if (provider !== undefined) {
    const { contextWindow, maxOutputTokens = 0 } = (await provider.getInfo()).defaults;
    if (contextWindow !== undefined) {
      budget = contextWindow - maxOutputTokens - (options.safetyMargin ?? DEFAULT_SAFETY_MARGIN);
    }
  }
  budget ??= maxTokens;
  if (budget !== undefined && maxTokens !== undefined) budget = Math.min(budget, maxTokens);
  return budget === undefined ? undefined : Math.max(0, Math.floor(budget));
}
