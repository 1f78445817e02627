// Gemini's `usageMetadata` read as ctxkit's usage: `promptTokenCount` is the whole prompt, cached tokens included.
import type { ParsedProviderUsage, ProviderUsageFields, UsageProblem } from "@ctxkit/core/kit";
import { parseProviderUsage } from "@ctxkit/core/kit";

/** Where the counts are: the prompt (its cached part already inside it) and the answer. */
export const GEMINI_USAGE_FIELDS: ProviderUsageFields = { input: ["promptTokenCount"], output: "candidatesTokenCount" };

/** Counts Gemini reports beside those two, each left out when zero: one that is no count makes the whole report untrusted. */
const OTHER_COUNTS = ["cachedContentTokenCount", "thoughtsTokenCount", "toolUsePromptTokenCount", "totalTokenCount"] as const;

/**
 * The usage a response reports, checked as every adapter checks it (`parseProviderUsage`): a count that is
 * negative, not a number or missing where required refuses the whole report, which is then said with
 * `context:usage_rejected` and never fails the turn.
 */
export function parseGeminiUsage(usageMetadata: unknown): ParsedProviderUsage {
  const parsed = parseProviderUsage(usageMetadata, GEMINI_USAGE_FIELDS);
  if (parsed.problems !== undefined || parsed.usage === undefined) return parsed;
  const problems: UsageProblem[] = OTHER_COUNTS.flatMap(
    (field) => parseProviderUsage(usageMetadata, { input: [field], requireInput: false }).problems ?? [],
  );
  return problems.length > 0 ? { problems } : parsed;
}
