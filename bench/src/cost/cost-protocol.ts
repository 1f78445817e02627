// What the cost benchmark asks of its child processes; they report back @ctxkit/cli's CostReport.
export type { CostReport, CostTotals } from "@ctxkit/cli/replay";

export interface CostJob {
  /** A label from COST_SYSTEMS. */
  readonly system: string;
  /** A transcript's file name in ../shared/data/transcripts. */
  readonly file: string;
  readonly budgets: readonly number[];
  readonly limitMs: number;
}
