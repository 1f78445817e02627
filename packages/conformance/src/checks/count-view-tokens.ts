// Counts views the way core does (text, tool-call JSON, per-message overhead), with a per-object cache:
// views reuse the manager's frozen messages, so each message is counted once per counter.
import { estimateCounter, tiktokenCounter, type Message, type TokenCounter } from "@ctxkit/core";
import { countMessageTokens } from "@ctxkit/core/kit";

const caches = new Map<string, WeakMap<object, number>>();
const counters = new Map<string, TokenCounter>();

/** Core's counter of that name (`tiktoken:o200k_base`, `tiktoken:cl100k_base`, `estimate`), if core has one. */
export function findCoreCounter(name: string): TokenCounter | undefined {
  let counter = counters.get(name);
  if (counter !== undefined) return counter;
  if (name === "tiktoken:o200k_base") counter = tiktokenCounter("o200k_base");
  else if (name === "tiktoken:cl100k_base") counter = tiktokenCounter("cl100k_base");
  else if (name === "estimate") counter = estimateCounter();
  if (counter !== undefined) counters.set(name, counter);
  return counter;
}

/** The exact counter the kit uses when a module reports no figures of its own. */
export const DEFAULT_COUNTER_NAME = "tiktoken:o200k_base";

export function countViewTokens(view: readonly Message[], counterName: string = DEFAULT_COUNTER_NAME): number {
  const counter = findCoreCounter(counterName);
  if (counter === undefined) throw new Error(`ctxkit-conformance: core has no counter named ${counterName}`);
  let cache = caches.get(counterName);
  if (cache === undefined) {
    cache = new WeakMap();
    caches.set(counterName, cache);
  }
  let total = 0;
  for (const message of view) {
    let tokens = cache.get(message);
    if (tokens === undefined) {
      tokens = countMessageTokens(message, counter);
      cache.set(message, tokens);
    }
    total += tokens;
  }
  return total;
}
