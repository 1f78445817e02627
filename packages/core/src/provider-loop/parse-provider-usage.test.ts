import { describe, expect, it } from "vitest";
import { parseProviderUsage, type ProviderUsageFields } from "./parse-provider-usage.js";

const ANTHROPIC: ProviderUsageFields = {
  input: ["input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"],
  output: "output_tokens",
};

describe("parseProviderUsage", () => {
  it("should sum the prompt's parts, absent optional parts counting 0", () => {
    expect(parseProviderUsage({ input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 5 }, ANTHROPIC)).toEqual({
      usage: { inputTokens: 100, outputTokens: 5 },
    });
    expect(parseProviderUsage({ input_tokens: 7, cache_creation_input_tokens: null }, ANTHROPIC)).toEqual({ usage: { inputTokens: 7 } });
  });

  it("should report nothing when the provider sent no usage", () => {
    expect(parseProviderUsage(undefined, ANTHROPIC)).toEqual({});
    expect(parseProviderUsage(null, ANTHROPIC)).toEqual({});
  });

  it.each([
    ["a negative count", { input_tokens: -1, output_tokens: 1 }, "input_tokens", /negative/],
    ["NaN", { input_tokens: Number.NaN }, "input_tokens", /finite/],
    ["Infinity", { input_tokens: 1, cache_read_input_tokens: Number.POSITIVE_INFINITY }, "cache_read_input_tokens", /finite/],
    ["a string", { input_tokens: "12" }, "input_tokens", /a number/],
    ["a missing input count", { output_tokens: 3 }, "input_tokens", /missing/],
    ["a bad output count", { input_tokens: 3, output_tokens: -2 }, "output_tokens", /negative/],
    [
      "a sum that overflows",
      { input_tokens: Number.MAX_VALUE, cache_read_input_tokens: Number.MAX_VALUE },
      "input_tokens + cache_read_input_tokens + cache_creation_input_tokens",
      /overflows/,
    ],
  ])("should refuse %s, naming the field", (_case, usage, field, reason) => {
    const parsed = parseProviderUsage(usage, ANTHROPIC);
    expect(parsed.usage).toBeUndefined();
    expect(parsed.problems).toContainEqual(expect.objectContaining({ field, reason: expect.stringMatching(reason) }));
  });

  it("should read a nested field and leave out an input count a provider may omit", () => {
    const fields: ProviderUsageFields = { input: ["inputTokens.total"], output: "outputTokens.total", requireInput: false };
    expect(parseProviderUsage({ inputTokens: { total: 12 }, outputTokens: { total: 3 } }, fields)).toEqual({
      usage: { inputTokens: 12, outputTokens: 3 },
    });
    expect(parseProviderUsage({ inputTokens: { total: undefined }, outputTokens: { total: 3 } }, fields)).toEqual({});
    expect(parseProviderUsage({ inputTokens: { total: Number.NaN } }, fields).problems).toHaveLength(1);
  });

  it("should refuse a usage that is no object", () => {
    expect(parseProviderUsage("lots", ANTHROPIC).problems).toEqual([{ field: "usage", value: "lots", reason: "expected an object" }]);
  });
});
