// What the per-request benchmark asks of its child processes, and what they report back.
import type { PathologicalInput } from "../sessions/pathological-session.js";

/**
 * - `free`: the budget is above the whole history, so nothing needs dropping.
 * - `steady`: at the budget, after the first view; for ctxkit a request that extends its sticky view.
 * - `compaction`: ctxkit's request that compacts the whole counted history to the budget.
 * - `trim`: a stateless peer's request at the budget: it trims the whole history every time.
 * - `pathological`: the first view of a short session holding one pathological tool result.
 */
/** A budget above any generated history: nothing needs dropping. */
export const NOTHING_TO_DROP = 100_000_000;

export type Scenario = "free" | "steady" | "compaction" | "trim" | "pathological";

export interface RequestJob {
  readonly system: string;
  readonly scenario: Scenario;
  readonly budget: number;
  /** Messages in the generated history (generated scenarios). */
  readonly size: number;
  readonly input?: PathologicalInput;
  /** Timed runs after one warm-up run. */
  readonly runs: number;
  /** The bound on one request: the child is killed past it, and the cell reads "> bound". */
  readonly boundMs: number;
  /** No new run starts once the scenario has taken this long (the warm-up always runs). */
  readonly scenarioMs: number;
  /** Skip this job when any of these (the same scenario on a shorter history) overran its bound. */
  readonly skipIfTimedOut: readonly number[];
}

export type RequestReport =
  | { readonly kind: "skipped" }
  | { readonly kind: "history"; readonly tokens: number }
  | {
      readonly kind: "sample";
      readonly milliseconds: number;
      readonly isWarmup: boolean;
      readonly tokenizerCalls: number;
      readonly messagesMeasured: number;
      readonly compacted: boolean | undefined;
      /** The view's exact tokens (core's counter) and whether it keeps every tool pair; judged under a budget only. */
      readonly viewTokens: number | undefined;
      readonly isPaired: boolean | undefined;
    };
