// Turns the config's strategy list into Strategy objects, in order.
import type { Strategy } from "../pipeline/strategy.js";
import { createBuiltInStrategy } from "../strategies/built-in-strategies.js";
import type { StrategyEntry } from "./context-config.js";

export function resolveStrategies(entries: readonly StrategyEntry[]): Strategy[] {
  return entries.map((entry) => {
    if (typeof entry === "string") return createBuiltInStrategy(entry);
    if ("apply" in entry) return entry;
    return createBuiltInStrategy(entry.name, entry.options);
  });
}
