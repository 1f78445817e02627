// The built-in strategies by name, as a config or a mount plan selects them (with their options as data).
import { ContextConfigError } from "../errors.js";
import type * as z from "zod/mini";
import type { Strategy } from "../pipeline/strategy.js";
import { clearToolResults, type ClearToolResultsOptions, optionsSchema as clearToolResultsSchema } from "./clear-tool-results.js";
import { importance, type ImportanceOptions, optionsSchema as importanceSchema } from "./importance.js";
import { microcompact, type MicrocompactOptions, optionsSchema as microcompactSchema } from "./microcompact.js";
import { offloadToolResults, type OffloadToolResultsOptions, optionsSchema as offloadToolResultsSchema } from "./offload-tool-results.js";
import { shortenToFit, type ShortenToFitOptions, optionsSchema as shortenToFitSchema } from "./shorten-to-fit.js";
import { slidingWindow, type SlidingWindowOptions, optionsSchema as slidingWindowSchema } from "./sliding-window.js";
import { trimLongText, type TrimLongTextOptions, optionsSchema as trimLongTextSchema } from "./trim-long-text.js";
import { truncate, type TruncateOptions, optionsSchema as truncateSchema } from "./truncate.js";

export interface BuiltInStrategyOptions {
  "clear-tool-results": ClearToolResultsOptions;
  "trim-long-text": TrimLongTextOptions;
  truncate: TruncateOptions;
  "sliding-window": SlidingWindowOptions;
  importance: ImportanceOptions;
  microcompact: MicrocompactOptions;
  "offload-tool-results": OffloadToolResultsOptions;
  "shorten-to-fit": ShortenToFitOptions;
}

export type BuiltInStrategyName = keyof BuiltInStrategyOptions;

/** A built-in strategy by name with its options, as a strategy list may give it. */
export type BuiltInStrategyEntry = {
  [Name in BuiltInStrategyName]: { readonly name: Name; readonly options?: BuiltInStrategyOptions[Name] };
}[BuiltInStrategyName];

/**
 * The default pipeline (presets `auto` without a summary strategy, and `truncate`): the cheapest loss
 * first. Clearing every tool result but the newest keeps what they named in its placeholder (up to 200
 * identifiers, leaving out those a newer tool result still shows, so the room goes to what would
 * otherwise be lost), trimming keeps every message's head and tail (but for old ones the truncation drops, which it leaves as they
 * are: the same view), truncation removes whole units and
 * leaves one note naming the identifiers they held that the rest of the view does not show (up to 200,
 * one per 240 tokens of the budget: a note is reread by every request until the next truncation), and what the truncation could not bring down to the target (a long
 * current turn) is shortened to stubs that still name what they held (up to 60 identifiers, one per 120
 * tokens of the budget, texts to 200 characters) rather than refused. One large step per compaction keeps
 * the cached prefix of the requests between compactions. On the bench's transcripts the skipped
 * identifiers and the note together bill less and keep more of the identifiers later calls use than the
 * same pipeline without them, at each budget measured (bench/README.md).
 */
export const DEFAULT_PIPELINE: readonly (BuiltInStrategyName | BuiltInStrategyEntry)[] = Object.freeze([
  Object.freeze({
    name: "clear-tool-results",
    options: Object.freeze({ keepRecent: 1, truncateFollows: true, maxIdentifiers: 200, skipShownIdentifiers: true }),
  }),
  Object.freeze({ name: "trim-long-text", options: Object.freeze({ truncateFollows: true }) }),
  Object.freeze({ name: "truncate", options: Object.freeze({ noteIdentifiers: 200, budgetTokensPerIdentifier: 240 }) }),
  Object.freeze({
    name: "shorten-to-fit",
    options: Object.freeze({ maxIdentifiers: 60, budgetTokensPerIdentifier: 120, maxTextChars: 200, maxArgumentChars: 80 }),
  }),
] as const);

/** The names of the default pipeline's strategies, in order. */
export const BUILT_IN_STRATEGIES: readonly BuiltInStrategyName[] = Object.freeze(
  DEFAULT_PIPELINE.map((entry) => (typeof entry === "string" ? entry : entry.name)),
);

// Each strategy checks its own options with its schema, unknown keys included: the one place they are listed.
const FACTORIES: { readonly [Name in BuiltInStrategyName]: (options: never) => Strategy } = {
  "clear-tool-results": clearToolResults,
  "trim-long-text": trimLongText,
  truncate,
  "shorten-to-fit": shortenToFit,
  "sliding-window": slidingWindow,
  importance,
  microcompact,
  "offload-tool-results": offloadToolResults,
};

/**
 * Each built-in strategy's options schema, by name: what `createBuiltInStrategy` checks its options with,
 * for a tool that lists or checks the options (every config schema's property test walks them).
 */
export const BUILT_IN_STRATEGY_SCHEMAS: { readonly [Name in BuiltInStrategyName]: z.core.$ZodType } = Object.freeze({
  "clear-tool-results": clearToolResultsSchema,
  "trim-long-text": trimLongTextSchema,
  truncate: truncateSchema,
  "shorten-to-fit": shortenToFitSchema,
  // The strategies outside the default pipeline build their schemas when first read.
  get "sliding-window"() {
    return slidingWindowSchema();
  },
  get importance() {
    return importanceSchema();
  },
  get microcompact() {
    return microcompactSchema();
  },
  get "offload-tool-results"() {
    return offloadToolResultsSchema();
  },
});

/** Every name `createBuiltInStrategy` accepts, the defaults first. */
export const BUILT_IN_STRATEGY_NAMES: readonly BuiltInStrategyName[] = Object.freeze(Object.keys(FACTORIES) as BuiltInStrategyName[]);

export function isBuiltInStrategyName(value: unknown): value is BuiltInStrategyName {
  return typeof value === "string" && Object.hasOwn(FACTORIES, value);
}

export function createBuiltInStrategy<Name extends BuiltInStrategyName>(name: Name, options?: BuiltInStrategyOptions[Name]): Strategy {
  if (!isBuiltInStrategyName(name)) {
    // Reached only from untyped callers, e.g. a config file that skipped validation.
    throw new ContextConfigError(String(name), [
      { path: "name", message: `unknown built-in strategy; expected one of ${BUILT_IN_STRATEGY_NAMES.join(", ")}` },
    ]);
  }
  if (options !== undefined && (typeof options !== "object" || options === null || Array.isArray(options))) {
    throw new ContextConfigError(name, [{ path: "options", message: "must be an object of options" }]);
  }
  return FACTORIES[name](options as never);
}
