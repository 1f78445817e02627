// A provider whose tokenizer counts more than o200k, as Claude's does: o200k × a factor (1.2 unless told), each text counted once.
import { tiktokenCounter } from "@ctxkit/core";

export const WINDOW = 8_192;
/**
 * A manager tuned to fill the window (the earlier default: compact late, to a large target, clearing
 * results but the newest five). Today's default compacts early and deep enough that a 1.2× provider
 * never overflows it, and these loops exist to prove the recovery.
 */
export const FILLS_THE_WINDOW: {
  compactThreshold: number;
  targetRatio: number;
  strategies: ("clear-tool-results" | "trim-long-text" | "truncate")[];
} = {
  compactThreshold: 0.92,
  targetRatio: 0.6,
  strategies: ["clear-tool-results", "trim-long-text", "truncate"],
};

/** How an imitated provider counts: its tokens per o200k token, and its context window. */
export interface ProviderCounting {
  readonly ratio: number;
  readonly window: number;
}

/** Claude's tokenizer against o200k, in the window every loop test runs in. */
export const DEFAULT_COUNTING: ProviderCounting = Object.freeze({ ratio: 1.2, window: WINDOW });

const counter = tiktokenCounter();
const counts = new Map<string, number>();

/** o200k tokens of `text`, cached: the loops re-send the same texts on every request. */
export function o200k(text: string): number {
  let count = counts.get(text);
  if (count === undefined) {
    count = counter.count(text) as number;
    counts.set(text, count);
  }
  return count;
}

/** What the imitated provider counts for these texts, plus a few tokens of framing per message. */
export function providerTokens(texts: readonly string[], messages: number, ratio = DEFAULT_COUNTING.ratio): number {
  const base = texts.reduce((total, text) => total + o200k(text), 0) + 4 * messages;
  return Math.ceil(base * ratio);
}
