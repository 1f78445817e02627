// Turns the config's strategy list into Strategy objects, in order.
import { createBuiltInStrategy, type Strategy } from "@ctxkit/core";
import type { StrategyEntry } from "./config-schema.js";

export function resolveStrategies(entries: readonly StrategyEntry[]): Strategy[] {
  return entries.map((entry) => {
    if (typeof entry === "string") return createBuiltInStrategy(entry);
    if ("apply" in entry) return entry;
    return createBuiltInStrategy(entry.name, entry.options);
  });
}
