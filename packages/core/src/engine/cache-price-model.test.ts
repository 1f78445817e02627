import { describe, expect, it } from "vitest";
import { ContextConfigError } from "../errors.js";
import { CACHE_PRICE_MODELS, cachePricingSchema, DEFAULT_CACHE_TTL_MS, resolveCachePriceModel } from "./cache-price-model.js";
import { contextConfigSchema } from "./context-config.js";
import { parseConfig } from "../modules/parse-config.js";

describe("cachePricing", () => {
  it("should default to Anthropic's prices: read 0.1×, write 1.25×, five minutes", () => {
    const config = parseConfig("@ctxkit/core", contextConfigSchema, {});
    expect(resolveCachePriceModel(config.cachePricing)).toEqual({ read: 0.1, write: 1.25, ttlMs: DEFAULT_CACHE_TTL_MS });
  });

  it("should name OpenAI's: no write premium", () => {
    expect(resolveCachePriceModel(cachePricingSchema.parse("openai"))).toBe(CACHE_PRICE_MODELS.openai);
    expect(CACHE_PRICE_MODELS.openai.write).toBe(1);
  });

  it("should take a provider's own prices, the lifetime defaulting to five minutes", () => {
    expect(resolveCachePriceModel(cachePricingSchema.parse({ read: 0.5, write: 1 }))).toEqual({ read: 0.5, write: 1, ttlMs: 300_000 });
    expect(resolveCachePriceModel(cachePricingSchema.parse({ read: 0.1, write: 2, ttlMs: 3_600_000 })).ttlMs).toBe(3_600_000);
  });

  it("should refuse an unknown preset, a read no cheaper than a write and an unknown key, naming each", () => {
    for (const cachePricing of ["gemini", { read: 1, write: 1 }, { read: 0.1, write: 1.25, ttl: 5 }, { read: -1, write: 1 }]) {
      let error: unknown;
      try {
        parseConfig("@ctxkit/core", contextConfigSchema, { cachePricing });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ContextConfigError);
      expect((error as ContextConfigError).message).toContain("cachePricing");
    }
  });
});
