// The strategy's options (in code) and config (in a mount plan), their validation and their defaults.
import { durationMsSchema } from "@ctxkit/core/kit";
import { z } from "zod";
import { DEFAULT_PROMPTS, type SummaryPrompts } from "./prompts.js";
import type { Summarizer } from "./summarizer.js";

const positiveInteger = z.number().int().positive();
const nonNegativeInteger = z.number().int().nonnegative();

/** The keys shared by the code options and the mount-plan config. */
const tuning = {
  /** The newest units kept verbatim, at most this many tokens. Default 40% of the pipeline's target. */
  keepRecentTokens: nonNegativeInteger.optional(),
  /** The length asked of the summarizer, and the most it may take. Default 15% of the target, at most 4 000. */
  maxSummaryTokens: positiveInteger.optional(),
  /** No summarizer call for fewer newly coverable tokens than this. Default 10% of the target. */
  minNewTokens: nonNegativeInteger.optional(),
  /** How much of each tool output (and tool-call argument) the summarizer sees. */
  maxToolOutputChars: positiveInteger.default(2_000),
  /** The most one summarizer call is sent; more is summarized in several incremental calls. Default the budget, at least 16 000. */
  maxInputTokens: positiveInteger.optional(),
  prompts: z
    .strictObject({ system: z.string().min(1).optional(), first: z.string().min(1).optional(), update: z.string().min(1).optional() })
    .optional(),
  /**
   * Whether the summary may stand for units after the latest user message (a long tool-calling turn).
   * `false` keeps the whole current turn verbatim, as invariant 5 states it for other strategies.
   */
  summarizeCurrentTurn: z.boolean().default(true),
  /** How long one summarizer call may take; then its signal aborts and it counts as a failure. */
  // Core's schemas are built with zod's functional API (`zod/mini`), so the default wraps it.
  timeoutMs: z._default(durationMsSchema, 60_000),
  /** Consecutive summarizer failures that open the circuit. */
  failureThreshold: positiveInteger.default(3),
  /** Compactions the summary is skipped for once the circuit is open; then one is tried (half-open). */
  cooldownRequests: nonNegativeInteger.default(5),
};

export const optionsSchema = z.strictObject({
  summarizer: z
    .custom<Summarizer>((value) => typeof value === "function", {
      message: "expected a function ({ messages, previousSummary, instructions, signal }) => Promise<string>",
    })
    .optional(),
  ...tuning,
});

/** A mount plan is data, so its summarizer is a mounted provider, named here; without one, the extractive summarizer. */
export const configSchema = z
  .strictObject({
    /** The name of a provider mounted at `providers` that has `complete({ messages, maxTokens, signal, model })`. */
    provider: z.string().min(1).optional(),
    /** Passed to the provider's `complete`. */
    model: z.string().min(1).optional(),
    ...tuning,
  })
  .superRefine((config, context) => {
    if (config.model !== undefined && config.provider === undefined) {
      context.addIssue({ code: "custom", path: ["model"], message: "needs a provider to send it to" });
    }
  });

export type SummaryStrategyOptions = z.input<typeof optionsSchema>;
export type ResolvedSummaryStrategyOptions = z.output<typeof optionsSchema>;
export type SummaryStrategyConfig = z.input<typeof configSchema>;

/** The sizes one compaction works with: explicit options, or shares of this request's target and budget. */
export interface SummarySizes {
  readonly keepRecentTokens: number;
  readonly maxSummaryTokens: number;
  readonly minNewTokens: number;
  readonly maxInputTokens: number;
}

export function resolveSizes(options: ResolvedSummaryStrategyOptions, target: number, budget: number): SummarySizes {
  return {
    keepRecentTokens: options.keepRecentTokens ?? Math.floor(target * 0.4),
    maxSummaryTokens: options.maxSummaryTokens ?? Math.max(1, Math.min(4_000, Math.floor(target * 0.15))),
    minNewTokens: options.minNewTokens ?? Math.floor(target * 0.1),
    maxInputTokens: options.maxInputTokens ?? Math.max(budget, 16_000),
  };
}

export function resolvePrompts(prompts: ResolvedSummaryStrategyOptions["prompts"]): SummaryPrompts {
  return { ...DEFAULT_PROMPTS, ...Object.fromEntries(Object.entries(prompts ?? {}).filter(([, value]) => value !== undefined)) };
}
