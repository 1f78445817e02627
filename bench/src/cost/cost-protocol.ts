// What the cost benchmark asks of its child processes, and what they report back.
import type { ViewTotals } from "../replay/view-judge.js";

export interface CostJob {
  /** A label from COST_SYSTEMS. */
  readonly system: string;
  /** A transcript's file name in ../shared/data/transcripts. */
  readonly file: string;
  readonly budgets: readonly number[];
  readonly limitMs: number;
}

/** Sums over one replay's requests, so replays add up. */
export interface CostTotals {
  /** Tokens of every view (exact o200k_base), and of their cached prefixes. */
  viewTokens: number;
  cachedTokens: number;
  /** Billed input, in base-price tokens, per price model name. */
  billed: Record<string, number>;
  /** Facts the calls used, and how many of them were in the view. */
  facts: number;
  retainedFacts: number;
  /** Views with no message but system ones. */
  emptyViews: number;
}

export interface CostReport {
  readonly file: string;
  readonly budget: number;
  readonly view: ViewTotals;
  readonly cost: CostTotals;
  readonly milliseconds: number;
}
