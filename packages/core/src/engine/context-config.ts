// The engine's configuration, shared by every context module: every key is read somewhere, and an unknown key is an error.
import type { ContextEventMap, ContextEventName } from "../events.js";
import type { Strategy } from "../pipeline/strategy.js";
import { DEFAULT_STRATEGY_TIMEOUT_MS } from "../pipeline/run-pipeline.js";
import { cachePricingSchema } from "./cache-price-model.js";
import { DEFAULT_KEEP_COMPACTION_RECEIPTS, RECEIPT_STATE } from "./compaction-receipts.js";
import { DEFAULT_EVENT_HANDLER_TIMEOUT_MS } from "./event-sink.js";
import { PIN_STATE } from "./pin-set.js";
import { COMPACTION_STATE, UNDONE_STATE } from "./undo-compaction.js";
import { durationMsSchema } from "../modules/duration-ms.js";
import { BUILT_IN_STRATEGY_NAMES, type BuiltInStrategyName } from "../strategies/built-in-strategies.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import * as z from "zod/mini";

/** State names the manager keeps its own records under. */
const RESERVED_STATE_NAMES: readonly string[] = [PIN_STATE, RECEIPT_STATE, COMPACTION_STATE, UNDONE_STATE, "(fallback)"];

const BUILT_IN_NAMES = BUILT_IN_STRATEGY_NAMES as readonly [BuiltInStrategyName, ...BuiltInStrategyName[]];

const isStrategy = (value: unknown): value is Strategy =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Strategy).name === "string" &&
  typeof (value as Strategy).apply === "function";

const isTokenCounter = (value: unknown): value is TokenCounter =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as TokenCounter).name === "string" &&
  typeof (value as TokenCounter).count === "function";

export type EventHandler = <E extends ContextEventName>(event: E, payload: ContextEventMap[E]) => void | Promise<void>;

/** What the engine takes beside its config: who it reports as, and an early event handler. */
export interface ContextEngineOptions {
  /** The module whose config this is, for `ContextConfigError` (default `@ctxkit/core`). */
  moduleName?: string;
  /** Receives every event from the start, including those emitted while opening (`context:recover`). */
  onEvent?: EventHandler;
}

const strategyEntrySchema = z.union([
  z.enum(BUILT_IN_NAMES),
  z.strictObject({ name: z.enum(BUILT_IN_NAMES), options: z.optional(z.record(z.string(), z.unknown())) }),
  z.custom<Strategy>(isStrategy, { message: "expected a built-in strategy name, { name, options }, or a Strategy object" }),
]);

/** The named pipelines an operator picks from without writing a strategy list. */
export const PRESETS = ["auto", "truncate", "summarize"] as const;
export type Preset = (typeof PRESETS)[number];

const ratio = z.number().check(z.gt(0, "must be greater than 0"), z.lte(1, "must be at most 1"));

export const contextConfigSchema = z
  .strictObject({
    /** The budget when neither the request nor a provider gives one, and always a cap. */
    maxTokens: z.optional(z.int().check(z.positive())),
    // From 70% of the budget, compact (when the rewrite pays: compaction-decision.ts) down to 20%, or more
    // for a slow session: few, large steps, each rewriting the cache once, and small views between them
    // (measured on real transcripts by the bench's `cost` benchmark).
    compactThreshold: z._default(ratio, 0.7),
    targetRatio: z._default(ratio, 0.2),
    safetyMargin: z._default(z.int().check(z.nonnegative()), 1_000),
    tokenizer: z._default(
      z.union([
        z.enum(["o200k_base", "cl100k_base", "estimate"]),
        z.custom<TokenCounter>(isTokenCounter, { message: 'expected "o200k_base", "cl100k_base", "estimate" or a TokenCounter' }),
      ]),
      "o200k_base",
    ),
    protectFirst: z._default(z.int().check(z.nonnegative()), 0),
    /**
     * The strategy list; without it, the `preset`'s. Give one or the other: a preset names a whole
     * pipeline, so it cannot be combined with a list.
     */
    strategies: z.optional(z.array(strategyEntrySchema)),
    /**
     * A named pipeline. `truncate`: clear-tool-results (all but the newest result), trim-long-text,
     * truncate, shorten-to-fit. `summarize`:
     * clear-tool-results, `summaryStrategy`, truncate. `auto` (the default): `summarize` when a
     * `summaryStrategy` is given, `truncate` otherwise.
     */
    preset: z.optional(z.enum(PRESETS)),
    /** The summary strategy the `summarize` and `auto` presets run (e.g. `createSummaryStrategy()`); a mount plan fills it in from the mounted providers. */
    summaryStrategy: z.optional(z.custom<Strategy>(isStrategy, { message: "expected a Strategy object (e.g. createSummaryStrategy())" })),
    onEvent: z.optional(z.custom<EventHandler>((value) => typeof value === "function", { message: "expected a function" })),
    /** How long one strategy may run before the pipeline goes on without it (it counts as failed). */
    strategyTimeoutMs: z._default(durationMsSchema, DEFAULT_STRATEGY_TIMEOUT_MS),
    /** How long an event handler may take before the manager goes on without it. */
    eventHandlerTimeoutMs: z._default(durationMsSchema, DEFAULT_EVENT_HANDLER_TIMEOUT_MS),
    /**
     * How many of the newest compaction receipts keep what became of each message; older ones keep only
     * their figures, and those past eight times this many are deleted.
     */
    keepCompactionReceipts: z._default(z.int().check(z.positive()), DEFAULT_KEEP_COMPACTION_RECEIPTS),
    /**
     * The provider's prompt-cache prices the compaction decision weighs: `"anthropic"` (read 0.1×, write
     * 1.25×), `"openai"` (read 0.1×, no write premium), or `{ read, write, ttlMs? }` as multiples of the base
     * input price. Past its threshold, a view compacts when the reads it saves repay the rewrite it risks
     * wasting (a young session waits), and after a pause longer than the cache lives, sooner (ttlMs, 5 minutes).
     */
    cachePricing: z._default(cachePricingSchema, "anthropic"),
  })
  .check(
    z.superRefine((config, context) => {
      if (config.preset !== undefined && config.strategies !== undefined) {
        context.addIssue({
          code: "custom",
          path: ["preset"],
          message: "give either preset or strategies, not both: a preset is a whole strategy list",
        });
      }
      if (config.preset === "summarize" && config.summaryStrategy === undefined) {
        context.addIssue({
          code: "custom",
          path: ["summaryStrategy"],
          message:
            'preset "summarize" needs a summary strategy: pass createSummaryStrategy() from @ctxkit/strategy-summary, or mount through a plan',
        });
      }
      if (config.summaryStrategy !== undefined && config.strategies !== undefined) {
        context.addIssue({
          code: "custom",
          path: ["summaryStrategy"],
          message: "is used only by a preset; put the strategy in the strategies list instead",
        });
      }
      // The manager keeps its own records in the strategies' state under these names; a strategy named so would share them.
      for (const [position, entry] of (config.strategies ?? []).entries()) {
        if (typeof entry === "object" && "apply" in entry && RESERVED_STATE_NAMES.includes(entry.name)) {
          context.addIssue({
            code: "custom",
            path: ["strategies", position, "name"],
            message: `"${entry.name}" is reserved for the manager's own state; give the strategy another name`,
          });
        }
      }
      if (config.summaryStrategy !== undefined && RESERVED_STATE_NAMES.includes(config.summaryStrategy.name)) {
        context.addIssue({
          code: "custom",
          path: ["summaryStrategy", "name"],
          message: `"${config.summaryStrategy.name}" is reserved for the manager's own state; give the strategy another name`,
        });
      }
      if (config.targetRatio > config.compactThreshold) {
        context.addIssue({
          code: "custom",
          path: ["targetRatio"],
          message: "must not exceed compactThreshold, or every view would compact",
        });
      }
    }),
  );

/** What a caller may pass: every key optional. */
export type ContextConfig = z.input<typeof contextConfigSchema>;
/** The config with defaults applied. */
export type ResolvedContextConfig = z.output<typeof contextConfigSchema>;
export type StrategyEntry = z.output<typeof strategyEntrySchema>;

/** Used only when no request, provider or `maxTokens` gives a budget. */
export const FALLBACK_BUDGET = 128_000;
