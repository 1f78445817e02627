// A provider whose tokenizer counts more than o200k, as Claude's does: o200k × 1.2, each text counted once.
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
const RATIO = 1.2;
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
export function providerTokens(texts: readonly string[], messages: number): number {
  const base = texts.reduce((total, text) => total + o200k(text), 0) + 4 * messages;
  return Math.ceil(base * RATIO);
}
