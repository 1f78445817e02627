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
/** Automatic caching: the cached prefix is read at 0.1× (as the brief's model fixes it), the rest at 1×. */
export const OPENAI_PRICING: PriceModel = { name: "OpenAI", cacheRead: 0.1, uncached: 1 };

export const PRICE_MODELS: readonly PriceModel[] = [ANTHROPIC_PRICING, OPENAI_PRICING];

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
