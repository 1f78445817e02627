import { describe, expect, it } from "vitest";
import type { Provider } from "../protocol.js";
import { resolveBudget } from "./resolve-budget.js";

const provider = (contextWindow?: number, maxOutputTokens?: number): Provider => ({
  name: "fake",
  getInfo: async () => ({
    defaults: {
      ...(contextWindow === undefined ? {} : { contextWindow }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    },
  }),
});

describe("resolveBudget", () => {
  it("should prefer an explicit token budget", async () => {
    expect(await resolveBudget({ tokenBudget: 500, provider: provider(128_000, 4_000) })).toBe(500);
  });

  it("should use the provider's window minus output and safety margin", async () => {
    expect(await resolveBudget({ provider: provider(128_000, 4_000), safetyMargin: 1_000 })).toBe(123_000);
  });

  it("should fall back to maxTokens when the provider gives no window", async () => {
    expect(await resolveBudget({ provider: provider(), maxTokens: 9_000 })).toBe(9_000);
  });

  it("should cap every source with maxTokens", async () => {
    expect(await resolveBudget({ tokenBudget: 50_000, maxTokens: 8_000 })).toBe(8_000);
    expect(await resolveBudget({ provider: provider(128_000, 4_000), maxTokens: 8_000 })).toBe(8_000);
  });

  it("should return undefined when nothing gives a budget", async () => {
    expect(await resolveBudget({})).toBeUndefined();
  });

  it("should never return a negative budget", async () => {
    expect(await resolveBudget({ provider: provider(1_000, 4_000) })).toBe(0);
  });
});
