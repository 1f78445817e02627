// What a provider's prompt cache charges, as the compaction decision weighs it: a rewrite against the reads it saves.
import * as z from "zod/mini";
import { durationMsSchema } from "../modules/duration-ms.js";

/**
 * Prices of one provider's prompt cache, as multiples of its base input price. `read`: a token of the cached
 * prefix. `write`: a token after it (Anthropic writes it to the cache at a premium; OpenAI charges the base
 * price). `ttlMs`: how long an unused cache lives; a request after a longer pause reads nothing from it.
 */
export interface CachePriceModel {
  readonly read: number;
  readonly write: number;
  readonly ttlMs: number;
}

/** Five minutes: Anthropic's default cache lifetime, and the shortest OpenAI keeps an idle prefix. */
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;

/** The provider presets `cachePricing` names. */
export const CACHE_PRICE_MODELS = Object.freeze({
  /** A cache breakpoint on every request: the prefix read at 0.1×, everything after it written at 1.25×, for 5 minutes. */
  anthropic: Object.freeze({ read: 0.1, write: 1.25, ttlMs: DEFAULT_CACHE_TTL_MS }),
  /** Automatic caching: the prefix read at 0.1× (the newest models; older ones read at 0.5×), no write premium. */
  openai: Object.freeze({ read: 0.1, write: 1, ttlMs: DEFAULT_CACHE_TTL_MS }),
}) satisfies Readonly<Record<string, CachePriceModel>>;

export type CachePricingPreset = keyof typeof CACHE_PRICE_MODELS;

const multiple = z.number().check(z.nonnegative());

/**
 * The `cachePricing` option: a preset's name, or `{ read, write, ttlMs? }`. A read must cost less than a
 * write: otherwise nothing is cached and no compaction is ever worth its rewrite over its reads.
 */
export const cachePricingSchema = z.union([
  z.enum(Object.keys(CACHE_PRICE_MODELS) as [CachePricingPreset, ...CachePricingPreset[]]),
  z
    .strictObject({
      read: multiple,
      write: multiple.check(z.gt(0, "must be greater than 0")),
      ttlMs: z._default(durationMsSchema, DEFAULT_CACHE_TTL_MS),
    })
    .check(
      z.refine((prices) => prices.read < prices.write, {
        message: "read must be less than write: a cache read is the discounted price",
        path: ["read"],
      }),
    ),
]);

export type CachePricing = z.input<typeof cachePricingSchema>;

/** The price model an option (already checked by `cachePricingSchema`) stands for. */
export function resolveCachePriceModel(pricing: z.output<typeof cachePricingSchema>): CachePriceModel {
  return typeof pricing === "string" ? CACHE_PRICE_MODELS[pricing] : pricing;
}
