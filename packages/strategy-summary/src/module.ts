// The module surface: what a mount plan loads as `{ module: "@ctxkit/strategy-summary", config }`.
import { ContextConfigError, type Coordinator } from "@ctxkit/core";
import { parseConfig, type Strategy } from "@ctxkit/core/kit";
import { configSchema, type SummaryStrategyConfig } from "./options.js";
import { isCompletionProvider, providerSummarizer } from "./provider-summarizer.js";
import { createSummaryStrategy } from "./summary-strategy.js";

export const meta = { type: "strategy", name: "strategy-summary" } as const;

export { configSchema };

/** The events the strategy itself emits; the manager running it emits the rest. */
const EMITTED_EVENTS = ["context:strategy_error"] as const;

/**
 * Builds the strategy from a mount plan's config. With `provider`, the summarizer is the provider
 * mounted under that name at `providers`, which must have a `complete` method; without one, the
 * extractive summarizer. A provider that is mounted but cannot complete is a config error now; one
 * not mounted yet is looked up again at each summary.
 */
export function createStrategy(config: SummaryStrategyConfig = {}, coordinator: Coordinator): Strategy {
  const { provider, model, ...options } = parseConfig(meta.name, configSchema, config);
  if (provider === undefined) return createSummaryStrategy(options);
  const mounted: unknown = coordinator.get("providers", provider);
  if (mounted !== undefined && !isCompletionProvider(mounted)) {
    throw new ContextConfigError(meta.name, [
      {
        path: "provider",
        message: `the provider "${provider}" mounted on the coordinator has no complete() method, so it cannot summarize`,
      },
    ]);
  }
  return createSummaryStrategy({ ...options, summarizer: providerSummarizer(coordinator, provider, model) });
}

/**
 * A strategy has nothing to mount: the context module that runs it does. This validates `config`
 * (so a bad plan fails early) and announces the events the strategy emits on the
 * `observability.events` channel. Returns the cleanup that withdraws that announcement.
 */
export function mount(coordinator: Coordinator, config: SummaryStrategyConfig = {}): () => void {
  parseConfig(meta.name, configSchema, config);
  return coordinator.registerContributor("observability.events", meta.name, () => [...EMITTED_EVENTS]);
}
