import { describe, expect, it } from "vitest";
import { ContextRequestError } from "../errors.js";
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

  describe("inputs that are not a count (regression: they gave NaN, so nothing compacted)", () => {
    const refusal = async (options: Parameters<typeof resolveBudget>[0]) => {
      const error = await resolveBudget(options).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ContextRequestError);
      return (error as ContextRequestError).issues[0]!.path;
    };

    it("should name tokenBudget when it is NaN, negative, a string or an object", async () => {
      for (const tokenBudget of [Number.NaN, -5, Number.POSITIVE_INFINITY, "100", {}]) {
        expect(await refusal({ tokenBudget: tokenBudget as number, maxTokens: 2_000 })).toBe("tokenBudget");
      }
    });

    it("should name the provider field that is NaN, negative or not a number", async () => {
      expect(await refusal({ provider: provider(Number.NaN) })).toBe("provider.getInfo().defaults.contextWindow");
      expect(await refusal({ provider: provider(-1) })).toBe("provider.getInfo().defaults.contextWindow");
      expect(await refusal({ provider: provider(100_000, Number.NaN) })).toBe("provider.getInfo().defaults.maxOutputTokens");
      expect(await refusal({ provider: provider("8k" as unknown as number) })).toBe("provider.getInfo().defaults.contextWindow");
    });

    it("should never let a negative maxOutputTokens raise the budget above the window", async () => {
      expect(await refusal({ provider: provider(10_000, -50_000) })).toBe("provider.getInfo().defaults.maxOutputTokens");
    });

    it("should name a provider without getInfo, or whose info has no defaults, instead of a TypeError", async () => {
      expect(await refusal({ provider: { name: "bare" } as unknown as Provider })).toBe("provider");
      expect(await refusal({ provider: { name: "odd", getInfo: () => ({}) } as unknown as Provider })).toBe("provider.getInfo().defaults");
    });
  });
});
