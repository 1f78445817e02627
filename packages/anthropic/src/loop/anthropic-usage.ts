// Anthropic's reported usage as ctxkit's ProviderUsage: its `input_tokens` leaves out the cached tokens.
import type { ProviderUsage } from "@ctxkit/core";
import type { ProviderUsageFields } from "@ctxkit/core/kit";
import type { Usage } from "@anthropic-ai/sdk/resources/messages";

type AnthropicUsage = Pick<Usage, "input_tokens" | "output_tokens"> &
  Partial<Pick<Usage, "cache_read_input_tokens" | "cache_creation_input_tokens">>;

/**
 * Anthropic counts the prompt in three parts: `input_tokens` (after the last cache breakpoint),
 * `cache_read_input_tokens` and `cache_creation_input_tokens`. The whole prompt is their sum.
 */
export function fromAnthropicUsage(usage: AnthropicUsage | null | undefined): ProviderUsage | undefined {
  if (usage === null || usage === undefined || typeof usage.input_tokens !== "number") return undefined;
  const inputTokens = usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
  return { inputTokens, outputTokens: usage.output_tokens };
}

/** Where `parseProviderUsage` finds Anthropic's counts: the whole prompt is the sum of the three input fields. */
export const ANTHROPIC_USAGE_FIELDS: ProviderUsageFields = {
  input: ["input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"],
  output: "output_tokens",
};
