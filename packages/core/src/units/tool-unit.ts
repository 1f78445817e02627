// Units: the atoms of compaction. A view keeps or drops a unit whole.

export interface ToolUnit {
  /** Index of the unit's first message. */
  readonly start: number;
  /** Index one past the unit's last message. */
  readonly end: number;
  /** `tool`: an assistant message with tool calls plus the results that answer it; `single`: any other message. */
  readonly kind: "tool" | "single";
}

export type ToolPairViolationKind =
  /** A tool message that answers no call of the assistant message opening its unit. */
  | "orphan_result"
  /** A call with no result before the next non-tool message. */
  | "dangling_call"
  /** A result whose call exists earlier, but not right before it. */
  | "result_not_adjacent"
  /** One assistant message uses the same id twice. */
  | "duplicate_call_id"
  /** A call answered twice. */
  | "duplicate_result";

export interface ToolPairViolation {
  readonly kind: ToolPairViolationKind;
  /** Index of the offending message. */
  readonly index: number;
  readonly toolCallId: string;
}

export interface ToolPairRepair {
  readonly kind: "dangling_call" | "orphan_result";
  readonly toolCallIds: readonly string[];
  /** Index in the input of the assistant (dangling) or tool message (orphan) repaired. */
  readonly index: number;
}
