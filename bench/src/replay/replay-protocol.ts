// What the replay benchmark asks of its child processes, and what they report back.
import type { GeneratedSessionOptions } from "../sessions/generate-session.js";
import type { ViewTotals } from "./view-judge.js";

export interface ReplayJob {
  readonly system: string;
  /** A transcript's file name in ../shared/data/transcripts, or the label of a generated session. */
  readonly file: string;
  /** Replays this generated session (`generateSession`) instead of reading `file`. */
  readonly generated?: GeneratedSessionOptions;
  readonly budgets: readonly number[];
  /** The whole job's safety limit; a trimmer's own time is bounded by prediction (see `ReplayReport`). */
  readonly limitMs: number;
  /** A trimmer whose predicted replay time is under this is also replayed for real, to check the prediction. */
  readonly validateBelowMs: number;
}

export interface ReplayReport {
  readonly file: string;
  readonly budget: number;
  readonly messages: number;
  readonly totals: ViewTotals;
  /** Time spent in requests (and in ctxkit's addMessage) over the whole replay. */
  readonly milliseconds: number;
  /**
   * "measured": a real replay. "predicted": a trimmer replayed with its counter memoized (the same
   * counts, so the same views) and the skipped counting time added back from per-message timings.
   */
  readonly timeKind: "measured" | "predicted";
  /** For a predicted time that was also replayed for real: the real time. */
  readonly validationMs?: number;
  readonly tokenizerCalls: number;
  readonly messagesMeasured: number;
}
