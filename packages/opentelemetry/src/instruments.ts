// The metric instruments, created once per instrumented manager.
import { createNoopMeter, type Counter, type Histogram, type Meter } from "@opentelemetry/api";
import {
  METRIC_CACHE_STABLE_SHARE,
  METRIC_COMPACTION_DURATION,
  METRIC_COMPACTIONS,
  METRIC_REFUSALS,
  METRIC_REPAIRS,
  METRIC_STRATEGY_ERRORS,
  METRIC_VIEW_TOKENS,
} from "./attribute-names.js";
import { guarded } from "./guard.js";

export interface Instruments {
  readonly viewTokens: Histogram;
  readonly cacheStableShare: Histogram;
  readonly compactionDuration: Histogram;
  readonly compactions: Counter;
  readonly refusals: Counter;
  readonly repairs: Counter;
  readonly strategyErrors: Counter;
}

// The GenAI conventions' buckets for token counts (`gen_ai.client.token.usage`) and durations in seconds.
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1_024, 4_096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304];
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const SHARE_BUCKETS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1];

/** The instruments on `meter`; on a meter that throws, instruments that record nothing. */
export function createInstruments(meter: Meter): Instruments {
  return guarded(
    "creating the metric instruments",
    () => instrumentsOn(meter),
    () => instrumentsOn(createNoopMeter()),
  );
}

function instrumentsOn(meter: Meter): Instruments {
  return {
    viewTokens: meter.createHistogram(METRIC_VIEW_TOKENS, {
      description: "Tokens of each view sent, counted with the manager's own counter",
      unit: "{token}",
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    }),
    cacheStableShare: meter.createHistogram(METRIC_CACHE_STABLE_SHARE, {
      description: "Share of a view's tokens in a prefix identical to the previous view (what a prompt cache can hit)",
      unit: "1",
      advice: { explicitBucketBoundaries: SHARE_BUCKETS },
    }),
    compactionDuration: meter.createHistogram(METRIC_COMPACTION_DURATION, {
      description: "How long a compaction took, strategies included",
      unit: "s",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    compactions: meter.createCounter(METRIC_COMPACTIONS, {
      description: "Compactions completed, by reason",
      unit: "{compaction}",
    }),
    refusals: meter.createCounter(METRIC_REFUSALS, {
      description: "Requests refused because the minimal view does not fit the budget",
      unit: "{refusal}",
    }),
    repairs: meter.createCounter(METRIC_REPAIRS, {
      description: "Broken tool pairs repaired in a view, by kind",
      unit: "{repair}",
    }),
    strategyErrors: meter.createCounter(METRIC_STRATEGY_ERRORS, {
      description: "Strategies that failed or timed out, by strategy",
      unit: "{error}",
    }),
  };
}
