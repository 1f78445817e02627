// Event names and payloads, as the contract names them.

/** One strategy's part in a compaction pass, as `context:post_compact` reports it in `steps`. */
export interface PipelineStep {
  strategy: string;
  applied: boolean;
  tokensBefore: number;
  tokensAfter: number;
  durationMs: number;
  /** Why the strategy did not run or its result was discarded. */
  skipped?: "error" | "circuit_open";
}

/**
 * Why a compaction ran: the view passed the threshold, the provider rejected the last view, the caller
 * forced it (`compact()`), the budget grew enough that the view is rebuilt from the history, or a
 * pause passed a strategy's `idleAfterMs` (microcompact), which then runs alone.
 */
export type CompactionReason = "threshold" | "overflow" | "forced" | "budget-change" | "idle" | "limit";

/**
 * Why a compaction left the view above its target. `protected`: what no strategy may drop (the
 * instructions, the pins, the current turn, the first messages) already passes it. `strategies`: the
 * configured strategies stopped short of it (a pipeline that only clears, say), and the view fits the
 * budget, so no last-resort pass ran. `requiredTokens` is what may not be dropped, as `ContextBudgetError` reports it.
 */
export interface TargetShortfall {
  reason: "protected" | "strategies";
  requiredTokens: number;
}

/** One reason a provider's usage was refused: the field, what it held (as text), and why it is no count. */
export interface UsageProblem {
  readonly field: string;
  readonly value: string;
  readonly reason: string;
}

export interface ContextEventMap {
  "context:pre_compact": { messageCount: number; tokenCount: number; budget: number; reason?: CompactionReason };
  "context:post_compact": {
    messageCount: number;
    tokenCount: number;
    budget: number;
    steps: readonly PipelineStep[];
    durationMs: number;
    reason?: CompactionReason;
    /**
     * The tokens the pass aimed for: `targetRatio × budget`. A pass that ran only the strategies due
     * after a pause or for a window limit aims for no count of its own: its target is the budget.
     */
    target: number;
    /** Set exactly when the view ended above `target`: why the pass could go no further. */
    shortOfTarget?: TargetShortfall;
    /** The id of the compaction's receipt (`getCompaction(id)`), when the manager keeps receipts. */
    receiptId?: string;
    /** With a receipt: the leading messages (and their tokens) the new view shares with the previous request's view. */
    sharedPrefix?: { messages: number; tokens: number };
    /** With a receipt: how many history messages the compaction left kept, cleared, trimmed, summarized or dropped. */
    fateCounts?: { kept: number; cleared: number; trimmed: number; summarized: number; dropped: number };
  };
  /**
   * Synthetic content (a summary, a repair notice) entered the view. For a summary, the history range
   * it stands for: from the first message it replaced through `coveredThrough` (messages in that range
   * that stayed verbatim, pinned ones say, are still in the view).
   */
  "context:include": { source: string; messageCount: number; tokenCount: number; coveredFrom?: number; coveredThrough?: number };
  "context:repair": { kind: "dangling_call" | "orphan_result"; toolCallIds: readonly string[] };
  "context:strategy_error": { strategy: string; error: unknown; consecutiveFailures: number };
  /** A persistent store cut off a torn final record when it opened. */
  "context:recover": { file: string; droppedBytes: number };
  /** A resumed persistent session ignored `setMessages`: its journal already holds the complete history. */
  "context:set_messages_ignored": { file: string; storedCount: number; givenCount: number };
  /** Reported provider usage moved the calibration: later budgets are scaled by `scale` (provider tokens per counted token). */
  "context:calibrate": { scale: number; reportedTokens: number; countedTokens: number };
  /** A loop got a usage from the provider that is no count (negative, NaN, missing, an overflowing sum): ignored, the turn kept. */
  "context:usage_rejected": { provider: string; problems: readonly UsageProblem[] };
}

export type ContextEventName = keyof ContextEventMap;

export const CONTEXT_EVENTS: readonly ContextEventName[] = [
  "context:pre_compact",
  "context:post_compact",
  "context:include",
  "context:repair",
  "context:strategy_error",
  "context:recover",
  "context:set_messages_ignored",
  "context:calibrate",
  "context:usage_rejected",
];

/**
 * Where a module sends its events: the coordinator's hooks when mounted, `onEvent` otherwise; both call
 * a handler with the event name, then its payload.
 * @deprecated The same shape as `EventHandler` (which may also return a promise); use that.
 */
export type ContextEventListener = <E extends ContextEventName>(event: E, payload: ContextEventMap[E]) => void;
