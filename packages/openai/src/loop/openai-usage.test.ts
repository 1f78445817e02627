import { describe, expect, it } from "vitest";
import { fromChatCompletionUsage, fromResponseUsage } from "./openai-usage.js";

describe("fromChatCompletionUsage", () => {
  it("should take prompt_tokens as it is: the cached tokens are already in it", () => {
    expect(
      fromChatCompletionUsage({
        prompt_tokens: 5_000,
        completion_tokens: 20,
        total_tokens: 5_020,
        prompt_tokens_details: { cached_tokens: 4_096 },
      }),
    ).toEqual({ inputTokens: 5_000, outputTokens: 20 });
  });

  it("should report nothing when there is no usage", () => {
    expect(fromChatCompletionUsage(undefined)).toBeUndefined();
  });
});

describe("fromResponseUsage", () => {
  it("should take input_tokens as it is: the cached tokens are already in it", () => {
    expect(
      fromResponseUsage({
        input_tokens: 5_000,
        input_tokens_details: { cached_tokens: 4_096, cache_write_tokens: 0 },
        output_tokens: 20,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 5_020,
      }),
    ).toEqual({ inputTokens: 5_000, outputTokens: 20 });
  });

  it("should report nothing when there is no usage", () => {
    expect(fromResponseUsage(null)).toBeUndefined();
  });
});
