// OpenAI's reported usage as ctxkit's ProviderUsage: its input counts already include the cached tokens.
import type { ProviderUsage } from "@ctxkit/core";
import type { ProviderUsageFields } from "@ctxkit/core/kit";
import type { CompletionUsage } from "openai/resources/completions";
import type { ResponseUsage } from "openai/resources/responses/responses";

/**
 * A Chat Completions `usage`: `prompt_tokens` counts the whole prompt, cached tokens included
 * (`prompt_tokens_details.cached_tokens` is a part of it, not an addition).
 */
export function fromChatCompletionUsage(usage: CompletionUsage | null | undefined): ProviderUsage | undefined {
  if (usage === null || usage === undefined || typeof usage.prompt_tokens !== "number") return undefined;
  return { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
}

/** A Responses `usage`: `input_tokens` counts the whole input, `input_tokens_details.cached_tokens` included. */
export function fromResponseUsage(usage: ResponseUsage | null | undefined): ProviderUsage | undefined {
  if (usage === null || usage === undefined || typeof usage.input_tokens !== "number") return undefined;
  return { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
}

/** Where `parseProviderUsage` finds a Chat Completions count (`prompt_tokens` already holds the cached ones). */
export const CHAT_COMPLETION_USAGE_FIELDS: ProviderUsageFields = { input: ["prompt_tokens"], output: "completion_tokens" };

/** Where `parseProviderUsage` finds a Responses count (`input_tokens` already holds the cached ones). */
export const RESPONSE_USAGE_FIELDS: ProviderUsageFields = { input: ["input_tokens"], output: "output_tokens" };
