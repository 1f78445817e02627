// A point of the search as the JSON config a user copies: for createContextManager, and inside a mount plan (CTXKIT_MOUNT_PLAN).
import { type ContextManager, createContextManager, type EventHandler, MemoryMessageStore } from "@ctxkit/core";
import { createSummaryStrategy } from "@ctxkit/strategy-summary";
import type { TuneKnobs } from "./tune-space.js";

/** The summary strategy as a mount plan names it; in code, `createSummaryStrategy()` stands in its place. */
export const SUMMARY_MODULE = "@ctxkit/strategy-summary";
/** The context module the printed mount plan mounts the config with. */
export const PLAN_CONTEXT_MODULE = "@ctxkit/context-simple";

type StrategyEntryJson = string | { name: string; options: Record<string, unknown> } | { module: string };

/** Plain JSON: thresholds and the strategy list, nothing else, so core's defaults fill in the rest. */
export interface TunedConfig {
  readonly compactThreshold: number;
  readonly targetRatio: number;
  readonly strategies: readonly StrategyEntryJson[];
}

export interface TunedMountPlan {
  readonly context: { readonly module: string; readonly config: TunedConfig };
}

/**
 * Without the summary, the default pipeline's shape (clear-tool-results leaving old units to truncate and
 * leaving out of its placeholders what a newer result shows, trim-long-text, truncate with its note of the
 * identifiers it dropped, shorten-to-fit); with it, the summarize preset's (clear-tool-results, the
 * summary, truncate), with the tool-result knobs set in both.
 */
export function configOfKnobs(knobs: TuneKnobs): TunedConfig {
  const clear = { keepRecent: knobs.keepRecent, maxIdentifiers: knobs.digestIdentifiers };
  return {
    compactThreshold: knobs.compactThreshold,
    targetRatio: knobs.targetRatio,
    strategies: knobs.summary
      ? [{ name: "clear-tool-results", options: clear }, { module: SUMMARY_MODULE }, "truncate"]
      : [
          { name: "clear-tool-results", options: { ...clear, truncateFollows: true, skipShownIdentifiers: true } },
          "trim-long-text",
          { name: "truncate", options: { noteIdentifiers: 200, budgetTokensPerIdentifier: 240 } },
          "shorten-to-fit",
        ],
  };
}

export function mountPlanOf(config: TunedConfig): TunedMountPlan {
  return { context: { module: PLAN_CONTEXT_MODULE, config } };
}

const isSummaryEntry = (entry: StrategyEntryJson): boolean =>
  typeof entry === "object" && "module" in entry && entry.module === SUMMARY_MODULE;

/**
 * The config's strategy list for `createContextManager`: the summary's mount-plan entry becomes
 * `createSummaryStrategy()` (the extractive summarizer: no model calls), as a mount plan without a provider
 * makes it.
 */
export function strategiesForCode(config: TunedConfig): unknown[] {
  return config.strategies.map((entry) => (isSummaryEntry(entry) ? createSummaryStrategy() : entry));
}

/** The manager a tuned config makes, the one the search replays: a memory store, the config, `onEvent`. */
export async function createTunedManager(config: TunedConfig, onEvent: EventHandler): Promise<ContextManager> {
  return createContextManager({
    store: new MemoryMessageStore(),
    ...config,
    strategies: strategiesForCode(config) as never,
    onEvent,
  });
}
