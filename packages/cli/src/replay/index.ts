// @ctxkit/cli/replay: replay a session through a context system, pricing every view under prompt caching and judging what it kept.
export {
  replayCost,
  emptyCostTotals,
  addCostTotals,
  type ReplaySession,
  type ReplaySystem,
  type CostTotals,
  type CostReport,
  type CostReplayInput,
  type ReplayCostOptions,
} from "./replay-cost.js";
export { managerSystem, FULL_HISTORY, type CreateReplayManager } from "./manager-system.js";
export {
  ANTHROPIC_PRICING,
  OPENAI_PRICING,
  NO_CACHE_PRICING,
  PRICE_MODELS,
  PRICING_BY_NAME,
  MIN_CACHED_TOKENS,
  billedTokens,
  cachedPrefixTokens,
  type PriceModel,
} from "./prompt-cache-pricing.js";
export { factsUsedByCalls, countRetained, extractIdentifiers, MAX_EARLIER_MESSAGES } from "./extract-facts.js";
export { ViewJudge, MessageFacts, emptyTotals, addTotals, type ViewTotals } from "./view-judge.js";
export { renderCostChart, paretoFrontier, type ChartPoint } from "./cost-chart.js";
