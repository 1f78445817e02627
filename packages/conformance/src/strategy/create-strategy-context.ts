// The StrategyContext a manager hands a strategy, built for a strategy's own tests and for the strategy suite.
import type { ContextEventMap, ContextEventName, Message, TokenCounter } from "@ctxkit/core";
import { countMessageTokens, createMemoryStateStore, type StrategyContext, type StrategyStateStore } from "@ctxkit/core/kit";
import { DEFAULT_COUNTER_NAME, findCoreCounter } from "../checks/count-view-tokens.js";

export interface StrategyContextOptions {
  /** The history the draft was taken from (the strategy reads it, never changes it). */
  readonly history: readonly Message[];
  /** The budget the final view must fit. */
  readonly budget: number;
  /** Where the pipeline stops. Default: 60% of the budget, the manager's default `targetRatio`. */
  readonly target?: number;
  /** Default: core's exact `o200k_base` counter, which the strategy suite uses. */
  readonly counter?: TokenCounter;
  /** Default 0. */
  readonly protectFirst?: number;
  /** Default: a fresh in-memory store (`createSharedStrategyState` for one that two workers share). */
  readonly state?: StrategyStateStore;
  /** Default: a signal that never aborts. */
  readonly signal?: AbortSignal;
  /** A compaction the caller asked for (`compact()`). Default: not set. */
  readonly forced?: boolean;
}

export interface RecordedStrategyEvent {
  readonly event: ContextEventName;
  readonly payload: ContextEventMap[ContextEventName];
}

/** A context whose events (a `context:strategy_error`, a `context:include`) are kept in `events`, in order. */
export type RecordingStrategyContext = StrategyContext & { readonly events: RecordedStrategyEvent[] };

/**
 * A `StrategyContext` as the manager builds it: the target at 60% of the budget, messages counted the
 * manager's way (`countMessageTokens` with the context's counter), a fresh state store, and every event
 * the strategy emits recorded in `events`. `createStrategyContext({ budget: 8_000, history })`.
 */
export function createStrategyContext(options: StrategyContextOptions): RecordingStrategyContext {
  const counter = options.counter ?? findCoreCounter(DEFAULT_COUNTER_NAME)!;
  const events: RecordedStrategyEvent[] = [];
  return {
    budget: options.budget,
    target: options.target ?? Math.floor(options.budget * 0.6),
    counter,
    history: options.history,
    signal: options.signal ?? new AbortController().signal,
    protectFirst: options.protectFirst ?? 0,
    state: options.state ?? createMemoryStateStore(),
    emit: (event, payload) => void events.push({ event, payload }),
    countMessage: (message) => countMessageTokens(message, counter),
    ...(options.forced === undefined ? {} : { forced: options.forced }),
    events,
  };
}
