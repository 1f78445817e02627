// What a request's input is billed under a provider's prompt cache: the prefix shared with the previous request is read from cache.

/** Below this many tokens a provider caches nothing (Anthropic's and OpenAI's minimum cacheable prompt). */
export const MIN_CACHED_TOKENS = 1_024;

export interface PriceModel {
  readonly name: string;
  /** Multiplier on the base input price for tokens read from the cache. */
  readonly cacheRead: number;
  /** Multiplier for every other input token (Anthropic writes them to the cache at a premium). */
  readonly uncached: number;
}

/** A cache breakpoint at the end of every request: the cached prefix is read at 0.1×, everything else written at 1.25×. */
export const ANTHROPIC_PRICING: PriceModel = { name: "Anthropic", cacheRead: 0.1, uncached: 1.25 };
/**
 * Automatic caching: the cached prefix is read at 0.1×, the rest at 1× with no write premium. 0.1× is the
 * cost benchmark's fixed model (the newest models' discount); older models read at 0.5×: pass `cacheRead`.
 */
export const OPENAI_PRICING: PriceModel = { name: "OpenAI", cacheRead: 0.1, uncached: 1 };
/** No prompt cache: every input token at the base price, so the cost is the tokens sent. */
export const NO_CACHE_PRICING: PriceModel = { name: "none", cacheRead: 1, uncached: 1 };

/** The two provider models the cost benchmark reports side by side. */
export const PRICE_MODELS: readonly PriceModel[] = [ANTHROPIC_PRICING, OPENAI_PRICING];

/** Every price model by the name a command line gives it. */
export const PRICING_BY_NAME: Readonly<Record<"anthropic" | "openai" | "none", PriceModel>> = {
  anthropic: ANTHROPIC_PRICING,
  openai: OPENAI_PRICING,
  none: NO_CACHE_PRICING,
};

/**
 * Tokens of the leading messages of `current` identical to `previous`'s (compared by key: the message's
 * JSON as sent), or 0 when that run is under `MIN_CACHED_TOKENS`.
 */
export function cachedPrefixTokens(previous: readonly string[], current: readonly string[], tokens: readonly number[]): number {
  let common = 0;
  for (let index = 0; index < current.length && index < previous.length && previous[index] === current[index]; index += 1)
    common += tokens[index]!;
  return common >= MIN_CACHED_TOKENS ? common : 0;
}

/** A request's input bill in base-price tokens. */
export function billedTokens(model: PriceModel, totalTokens: number, cachedTokens: number): number {
  return model.cacheRead * cachedTokens + model.uncached * (totalTokens - cachedTokens);
}
