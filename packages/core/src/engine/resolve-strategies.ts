// Turns the config's strategy list, or its preset's, into Strategy objects, in order.
import type { Strategy } from "../pipeline/strategy.js";
import { createBuiltInStrategy, DEFAULT_PIPELINE } from "../strategies/built-in-strategies.js";
import type { ResolvedContextConfig, StrategyEntry } from "./context-config.js";

/** The strategy list `config` names: its own, or the one its preset (default `auto`) stands for. */
export function presetStrategies(config: Pick<ResolvedContextConfig, "strategies" | "preset" | "summaryStrategy">): StrategyEntry[] {
  if (config.strategies !== undefined) return config.strategies;
  const { preset = "auto", summaryStrategy } = config;
  // The summary replaces trim-long-text: it shortens the old part as a whole, and the recent part stays verbatim.
  if (preset !== "truncate" && summaryStrategy !== undefined) return ["clear-tool-results", summaryStrategy, "truncate"];
  // The options are plain data, as a config would give them.
  return DEFAULT_PIPELINE.map((entry) => (typeof entry === "string" ? entry : { name: entry.name, options: { ...entry.options } }));
}

export function resolveStrategies(entries: readonly StrategyEntry[]): Strategy[] {
  return entries.map((entry) => {
    if (typeof entry === "string") return createBuiltInStrategy(entry);
    if ("apply" in entry) return entry;
    return createBuiltInStrategy(entry.name, entry.options);
  });
}
