import { describe, expect, it } from "vitest";
import { fromAnthropicUsage } from "./anthropic-usage.js";

describe("fromAnthropicUsage", () => {
  it("should add the cache reads and writes to input_tokens, which leaves them out", () => {
    expect(
      fromAnthropicUsage({ input_tokens: 40, cache_read_input_tokens: 5_000, cache_creation_input_tokens: 700, output_tokens: 12 }),
    ).toEqual({
      inputTokens: 5_740,
      outputTokens: 12,
    });
  });

  it("should take absent or null cache counts as zero", () => {
    expect(fromAnthropicUsage({ input_tokens: 40, cache_read_input_tokens: null, output_tokens: 3 })).toEqual({
      inputTokens: 40,
      outputTokens: 3,
    });
    expect(fromAnthropicUsage({ input_tokens: 40, output_tokens: 3 })).toEqual({ inputTokens: 40, outputTokens: 3 });
  });

  it("should report nothing when there is no usage", () => {
    expect(fromAnthropicUsage(undefined)).toBeUndefined();
    expect(fromAnthropicUsage(null)).toBeUndefined();
  });
});
