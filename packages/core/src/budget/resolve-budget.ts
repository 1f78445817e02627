// Which token budget a view must fit, in the contract's order of precedence, from inputs checked on the way.
import { ContextRequestError } from "../errors.js";
import type { Provider, ProviderInfo } from "../protocol.js";

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

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;

function refuse(path: string, expected: string, received: unknown): never {
  const shown =
    typeof received === "string"
      ? JSON.stringify(received)
      : typeof received === "object" && received !== null
        ? "an object"
        : String(received);
  throw new ContextRequestError([{ path, message: `must be ${expected}; received ${shown}` }]);
}

/** The provider's window and output reservation, each checked: junk never becomes a budget. */
async function readProviderLimits(provider: Provider): Promise<{ contextWindow: number | undefined; maxOutputTokens: number }> {
  if (typeof provider !== "object" || provider === null || typeof provider.getInfo !== "function") {
    refuse("provider", "an object with getInfo() returning { defaults: { contextWindow, maxOutputTokens } }", provider);
  }
  const info: unknown = await provider.getInfo();
  const defaults = (info as Partial<ProviderInfo> | undefined)?.defaults;
  if (typeof defaults !== "object" || defaults === null) refuse("provider.getInfo().defaults", "an object", defaults);
  const { contextWindow, maxOutputTokens = 0 } = defaults;
  if (contextWindow !== undefined && !(isCount(contextWindow) && contextWindow > 0)) {
    refuse("provider.getInfo().defaults.contextWindow", "a finite number of tokens > 0, or absent", contextWindow);
  }
  if (!isCount(maxOutputTokens))
    refuse("provider.getInfo().defaults.maxOutputTokens", "a finite number of tokens ≥ 0, or absent", maxOutputTokens);
  return { contextWindow, maxOutputTokens };
}

/**
 * Resolves the budget: an explicit `tokenBudget`, else the provider's
 * `contextWindow - maxOutputTokens - safetyMargin`, else `maxTokens`; capped by `maxTokens`.
 * Returns `undefined` when nothing gives a budget. A `tokenBudget` or provider info that is not a
 * count (NaN, negative, a string) throws `ContextRequestError` naming the field.
 */
export async function resolveBudget(options: BudgetOptions): Promise<number | undefined> {
  const { tokenBudget, provider, maxTokens } = options;
  let budget: number | undefined;
  if (tokenBudget !== undefined) {
    if (!isCount(tokenBudget)) refuse("tokenBudget", "a finite number of tokens ≥ 0", tokenBudget);
    budget = tokenBudget;
  } else if (provider !== undefined) {
    const { contextWindow, maxOutputTokens } = await readProviderLimits(provider);
    if (contextWindow !== undefined) {
      budget = contextWindow - maxOutputTokens - (options.safetyMargin ?? DEFAULT_SAFETY_MARGIN);
    }
  }
  budget ??= maxTokens;
  if (budget !== undefined && maxTokens !== undefined) budget = Math.min(budget, maxTokens);
  return budget === undefined ? undefined : Math.max(0, Math.floor(budget));
}
