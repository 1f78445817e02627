// The built-in strategies by name, as a config or a mount plan selects them (with their options as data).
import { ContextConfigError } from "../errors.js";
import type { Strategy } from "../pipeline/strategy.js";
import { clearToolResults, type ClearToolResultsOptions } from "./clear-tool-results.js";
import { importance, type ImportanceOptions } from "./importance.js";
import { microcompact, type MicrocompactOptions } from "./microcompact.js";
import { offloadToolResults, type OffloadToolResultsOptions } from "./offload-tool-results.js";
import { shortenToFit, type ShortenToFitOptions } from "./shorten-to-fit.js";
import { slidingWindow, type SlidingWindowOptions } from "./sliding-window.js";
import { trimLongText, type TrimLongTextOptions } from "./trim-long-text.js";
import { truncate, type TruncateOptions } from "./truncate.js";

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
 * first. Clearing every tool result but the newest keeps what they named in its placeholder, trimming
 * keeps every message's head and tail, truncation removes whole units, and only a turn still too long
 * is shortened to stubs rather than refused. One large step per compaction keeps the cached prefix
 * of the requests between compactions.
 */
export const DEFAULT_PIPELINE: readonly (BuiltInStrategyName | BuiltInStrategyEntry)[] = Object.freeze([
  Object.freeze({ name: "clear-tool-results", options: Object.freeze({ keepRecent: 1, truncateFollows: true }) }),
  "trim-long-text",
  "truncate",
  "shorten-to-fit",
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
