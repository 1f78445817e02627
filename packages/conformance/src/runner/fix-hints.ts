// One sentence per kind of failure: what to change in the manager, so a report teaches as well as convicts.

interface Hint {
  /** The kind of failure, to tell distinct failures apart. */
  readonly kind: string;
  readonly matches: RegExp;
  readonly fix: string;
}

// The most specific first: a failure's message decides its kind before its property does.
const HINTS: readonly Hint[] = [
  {
    kind: "minimal-view-overflow",
    matches: /over the budget|ContextBudgetError|over its budget|above the requested budget/,
    fix: "Fit every view in its budget by core's exact count, and when even the minimal view (instructions, pins, the current turn) does not fit, throw ContextBudgetError with required > budget instead of returning a view.",
  },
  {
    kind: "split-tool-unit",
    matches: /breaks tool pairs|breaks tool units|tool result|unanswered/,
    fix: "Keep or drop each tool unit whole: an assistant message with tool calls goes with all of its results, right after it, never cut at a window's edge.",
  },
  {
    kind: "missing-required",
    matches: /is missing( or altered)? in the view/,
    fix: "Keep the system and developer messages, the pinned messages and the latest user message verbatim in every view, and what follows that message at least shortened.",
  },
  {
    kind: "order",
    matches: /neither synthetic|history order|reorder/,
    fix: "Take view messages from the history in order, whole or shortened, and mark anything you synthesize with metadata.ctxkit.",
  },
  {
    kind: "history-changed",
    matches: /getMessages\(\) (returns|still)|mutat|rewr/,
    fix: "Never rewrite the stored history or the caller's objects: build each view from copies.",
  },
  {
    kind: "compaction-target",
    matches: /shortOfTarget|names no target/,
    fix: "Give each post_compact the target the compaction aimed for, and when the view ends above it, shortOfTarget with the reason and the tokens that may not be dropped.",
  },
  {
    kind: "compaction-loop",
    matches: /compacted again|compaction loop/,
    fix: "Compact only when something new needs room, and bring the view to its target (or report that you cannot) in one compaction.",
  },
  {
    kind: "events",
    matches: /pre_compact|post_compact|announce|repair/,
    fix: "Emit context:pre_compact and context:post_compact around every compaction and context:repair for every repair, with figures that match the view.",
  },
];

const FALLBACK = "Make the manager keep the invariant above; the counterexample is the smallest session that breaks it.";

export function classifyFailure(reason: string | undefined): Hint | undefined {
  return reason === undefined ? undefined : HINTS.find((hint) => hint.matches.test(reason));
}

/** The kind of a failure (for telling failures apart) and what to fix, in one sentence. */
export function describeFix(reason: string | undefined): { failureKind: string; fix: string } {
  const hint = classifyFailure(reason);
  return hint === undefined ? { failureKind: reason ?? "unknown", fix: FALLBACK } : { failureKind: hint.kind, fix: hint.fix };
}
