import { describe, expect, it } from "vitest";
import { ANTHROPIC_PRICING, billedTokens, cachedPrefixTokens, OPENAI_PRICING } from "./prompt-cache-pricing.js";

describe("cachedPrefixTokens", () => {
  it("sums the leading messages identical to the previous request's, up to the first difference", () => {
    expect(cachedPrefixTokens(["a", "b", "c"], ["a", "b", "x", "c"], [600, 700, 50, 900])).toBe(1_300);
  });

  it("caches nothing under 1,024 tokens, and nothing after a changed first message", () => {
    expect(cachedPrefixTokens(["a", "b"], ["a", "b", "c"], [500, 523, 4_000])).toBe(0);
    expect(cachedPrefixTokens(["a", "b"], ["z", "b"], [5_000, 5_000])).toBe(0);
    expect(cachedPrefixTokens([], ["a"], [5_000])).toBe(0);
  });
});

describe("billedTokens", () => {
  it("reads the cached prefix at 0.1× and bills the rest at 1.25× (Anthropic) or 1× (OpenAI)", () => {
    expect(billedTokens(ANTHROPIC_PRICING, 10_000, 8_000)).toBeCloseTo(800 + 2_500);
    expect(billedTokens(OPENAI_PRICING, 10_000, 8_000)).toBeCloseTo(800 + 2_000);
    expect(billedTokens(ANTHROPIC_PRICING, 10_000, 0)).toBeCloseTo(12_500);
  });
});
