// A provider's reported usage checked before a loop stores anything: a usable ProviderUsage, none, or the problems found.
import type { UsageProblem } from "../events.js";
import type { ProviderUsage } from "../protocol.js";

/** Where a provider keeps its counts in its `usage` object, by its own field names (a dotted path reaches a nested one). */
export interface ProviderUsageFields {
  /** The fields whose sum is the whole prompt's count, e.g. Anthropic's `input_tokens` plus its two cache counts. */
  readonly input: readonly [string, ...string[]];
  readonly output?: string;
  /**
   * Whether a usage object without its first input field is malformed (Anthropic, OpenAI). `false` where a
   * provider may leave the count out on purpose (the AI SDK's `inputTokens.total`). Default true.
   */
  readonly requireInput?: boolean;
}

// Declared with the event that reports it (`context:usage_rejected`), which sits below this layer.
export type { UsageProblem };

export type ParsedProviderUsage =
  /** The provider reported usable counts. */
  | { readonly usage: ProviderUsage; readonly problems?: undefined }
  /** The provider reported no usage (or no input count where that is allowed): nothing to report. */
  | { readonly usage?: undefined; readonly problems?: undefined }
  /** The provider reported counts that are no counts: ignored, and said with `context:usage_rejected`. */
  | { readonly usage?: undefined; readonly problems: readonly UsageProblem[] };

function read(usage: Record<string, unknown>, path: string): unknown {
  let value: unknown = usage;
  for (const key of path.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function problemOf(field: string, value: unknown): UsageProblem | undefined {
  if (typeof value !== "number") return { field, value: String(value), reason: "expected a number of tokens" };
  if (!Number.isFinite(value)) return { field, value: String(value), reason: "expected a finite number of tokens" };
  if (value < 0) return { field, value: String(value), reason: "a token count cannot be negative" };
  return undefined;
}

/**
 * Reads `usage` (a provider's `usage` object, as it came over the wire) through `fields`. Absent optional
 * fields count 0; a field that is not a finite count ≥ 0, a missing required one, or an input sum that
 * overflows makes the whole usage refused, since one wrong figure means none of them can be trusted.
 */
export function parseProviderUsage(usage: unknown, fields: ProviderUsageFields): ParsedProviderUsage {
  if (usage === null || usage === undefined) return {};
  if (typeof usage !== "object" || Array.isArray(usage))
    return {
      problems: [{ field: "usage", value: typeof usage === "string" ? usage : JSON.stringify(usage), reason: "expected an object" }],
    };
  const record = usage as Record<string, unknown>;
  const [first] = fields.input;
  const problems: UsageProblem[] = [];
  if (read(record, first) == null) {
    if (fields.requireInput === false) return {};
    problems.push({ field: first, value: String(read(record, first)), reason: "the provider's input count is missing" });
  }
  let inputTokens = 0;
  for (const field of fields.input) {
    const value = read(record, field);
    if (value == null) continue;
    const problem = problemOf(field, value);
    if (problem === undefined) inputTokens += value as number;
    else problems.push(problem);
  }
  if (problems.length === 0 && !Number.isFinite(inputTokens))
    problems.push({ field: fields.input.join(" + "), value: String(inputTokens), reason: "the counts' sum overflows" });
  const outputValue = fields.output === undefined ? undefined : read(record, fields.output);
  const outputProblem = outputValue == null ? undefined : problemOf(fields.output!, outputValue);
  if (outputProblem !== undefined) problems.push(outputProblem);
  if (problems.length > 0) return { problems };
  return { usage: { inputTokens, ...(outputValue == null ? {} : { outputTokens: outputValue as number }) } };
}
