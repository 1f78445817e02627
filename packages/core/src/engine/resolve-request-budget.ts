// A request's nominal budget: the request's, the provider's, or the config's, capped by `maxTokens`.
import { resolveBudget } from "../budget/resolve-budget.js";
import type { RequestOptions } from "../protocol.js";
import { FALLBACK_BUDGET, type ResolvedContextConfig } from "./context-config.js";

export async function resolveRequestBudget(options: RequestOptions, config: ResolvedContextConfig): Promise<number> {
  const budget = await resolveBudget({
    tokenBudget: options.tokenBudget,
    provider: options.provider,
    safetyMargin: config.safetyMargin,
    maxTokens: config.maxTokens,
  });
  return budget ?? FALLBACK_BUDGET;
}
