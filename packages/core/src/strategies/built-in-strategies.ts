// The built-in strategies by name, as a mount plan selects them.
import { ContextConfigError } from "../errors.js";
import type { Strategy } from "../pipeline/strategy.js";
import { clearToolResults, type ClearToolResultsOptions } from "./clear-tool-results.js";
import { trimLongText, type TrimLongTextOptions } from "./trim-long-text.js";
import { truncate, type TruncateOptions } from "./truncate.js";

export type BuiltInStrategyName = "clear-tool-results" | "trim-long-text" | "truncate";

export interface BuiltInStrategyOptions {
  "clear-tool-results": ClearToolResultsOptions;
  "trim-long-text": TrimLongTextOptions;
  truncate: TruncateOptions;
}

/**
 * The default order: the cheapest loss first. Clearing old tool results loses the least the model still
 * needs, trimming keeps every message's head and tail, and truncation removes whole units last.
 */
export const BUILT_IN_STRATEGIES: readonly BuiltInStrategyName[] = Object.freeze([
  "clear-tool-results",
  "trim-long-text",
  "truncate",
]);

export function isBuiltInStrategyName(value: unknown): value is BuiltInStrategyName {
  return typeof value === "string" && (BUILT_IN_STRATEGIES as readonly string[]).includes(value);
}

const OPTION_KEYS: Record<BuiltInStrategyName, readonly string[]> = {
  "clear-tool-results": ["keepRecent", "placeholder"],
  "trim-long-text": ["maxChars", "headChars", "tailChars"],
  truncate: ["protectFirst"],
};

export function createBuiltInStrategy<Name extends BuiltInStrategyName>(
  name: Name,
  options?: BuiltInStrategyOptions[Name],
): Strategy {
  const known = OPTION_KEYS[name as BuiltInStrategyName] ?? [];
  const unknown = Object.keys(options ?? {}).filter((key) => !known.includes(key));
  if (isBuiltInStrategyName(name) && unknown.length > 0) {
    // A misspelt option would otherwise be silently ignored.
    throw new ContextConfigError(name, unknown.map((key) => ({ path: key, message: `unknown option; expected one of ${known.join(", ")}` })));
  }
  switch (name as BuiltInStrategyName) {
    case "clear-tool-results":
      return clearToolResults(options as ClearToolResultsOptions | undefined);
    case "trim-long-text":
      return trimLongText(options as TrimLongTextOptions | undefined);
    case "truncate":
      return truncate(options as TruncateOptions | undefined);
    default:
      // Reached only from untyped callers, e.g. a config file that skipped validation.
      throw new ContextConfigError(String(name), [
        { path: "name", message: `unknown built-in strategy; expected one of ${BUILT_IN_STRATEGIES.join(", ")}` },
      ]);
  }
}
