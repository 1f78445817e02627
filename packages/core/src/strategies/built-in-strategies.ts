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

interface Factory {
  readonly create: (options: never) => Strategy;
  /** The option keys a config may set; a misspelt one would otherwise be silently ignored. */
  readonly keys: readonly string[];
}

const FACTORIES: { readonly [Name in BuiltInStrategyName]: Factory } = {
  "clear-tool-results": { create: clearToolResults, keys: ["keepRecent", "placeholder", "maxIdentifiers", "truncateFollows"] },
  "trim-long-text": { create: trimLongText, keys: ["maxChars", "headChars", "tailChars"] },
  truncate: { create: truncate, keys: ["protectFirst"] },
  "shorten-to-fit": { create: shortenToFit, keys: ["maxTextChars", "maxArgumentChars", "maxIdentifiers"] },
  "sliding-window": { create: slidingWindow, keys: ["windowSize", "step"] },
  importance: { create: importance, keys: ["weights"] },
  microcompact: { create: microcompact, keys: ["keepRecent", "idleMs", "isClearable"] },
  "offload-tool-results": { create: offloadToolResults, keys: ["minTokens", "keepRecent", "previewChars"] },
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
  const { create, keys } = FACTORIES[name];
  if (options !== undefined && (typeof options !== "object" || options === null || Array.isArray(options))) {
    throw new ContextConfigError(name, [{ path: "options", message: "must be an object of options" }]);
  }
  const unknown = Object.keys(options ?? {}).filter((key) => !keys.includes(key));
  if (unknown.length > 0) {
    throw new ContextConfigError(
      name,
      unknown.map((key) => ({ path: key, message: `unknown option; expected one of ${keys.join(", ")}` })),
    );
  }
  return create((options ?? {}) as never);
}
