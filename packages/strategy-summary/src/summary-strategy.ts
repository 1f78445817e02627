// The `summary` strategy: replaces the oldest units with a cached, incrementally extended summary checkpoint.
import { parseConfig, type Strategy, type StrategyContext, type StrategyResult, type ViewDraft } from "@ctxkit/core/kit";
import { CheckpointStore } from "./checkpoint-store.js";
import { extractiveSummarizer } from "./extractive-summarizer.js";
import { collectFiles, NO_FILES } from "./file-operations.js";
import { findBaseInDraft, findCachedBase, findExposedUnits, isCoveredBy, type DraftIndex, type SummaryBase } from "./find-base.js";
import { optionsSchema, resolvePrompts, resolveSizes, type SummaryStrategyOptions } from "./options.js";
import { planCoverage, type CoveragePlan } from "./plan-coverage.js";
import { replaceCovered } from "./replace-covered.js";
import { extendSummary, type SummarizerSettings } from "./run-summarizer.js";
import { SummaryBreaker } from "./summary-breaker.js";
import { createSummaryEntry, isSummaryEntry, type SummaryContent } from "./summary-message.js";

export const SUMMARY_STRATEGY_NAME = "summary";

/** What a new summary would add to `base`, walking the history up to `coveredThrough` once. */
function findNewIndices(
  view: ViewDraft,
  plan: CoveragePlan,
  removed: ReadonlySet<number>,
  index: DraftIndex,
  base: SummaryBase | undefined,
  coveredThrough: number,
) {
  const newIndices: number[] = [];
  const verbatim: number[] = [];
  let newTokens = 0;
  for (let historyIndex = 0; historyIndex <= coveredThrough; historyIndex += 1) {
    if (isCoveredBy(base, historyIndex)) continue;
    const position = index.positionOf.get(historyIndex);
    // A message the draft no longer holds (an earlier truncate dropped it) is summarized rather than lost.
    if (position === undefined) {
      newIndices.push(historyIndex);
    } else if (removed.has(plan.unitOfEntry[position]!)) {
      newIndices.push(historyIndex);
      newTokens += view.entries[position]!.tokens;
    } else {
      verbatim.push(historyIndex);
    }
  }
  return { newIndices, verbatim, newTokens };
}

/** The highest history index in `units`, or -1: a summary that takes in a unit must cover all of it. */
function lastHistoryIndex(view: ViewDraft, units: ReadonlySet<number>): number {
  let last = -1;
  for (const unitIndex of units) {
    const unit = view.units[unitIndex]!;
    for (let position = unit.start; position < unit.end; position += 1) {
      const source = view.entries[position]!.source;
      if (source.kind === "history") last = Math.max(last, source.index);
    }
  }
  return last;
}

function tokensOfUnits(view: ViewDraft, plan: CoveragePlan, units: ReadonlySet<number>): number {
  let tokens = 0;
  view.units.forEach((unit, unitIndex) => {
    if (!units.has(unitIndex) && plan.kinds[unitIndex] !== "summary") return;
    for (let position = unit.start; position < unit.end; position += 1) tokens += view.entries[position]!.tokens;
  });
  return tokens;
}

/**
 * A `Strategy` named `summary`. Without a `summarizer` it uses `extractiveSummarizer()`, which needs no
 * LLM. Summarizer failures never fail the request: they are reported as `context:strategy_error`, the
 * draft is returned unchanged for the next strategy, and a circuit breaker stops repeated attempts.
 */
export function createSummaryStrategy(options: SummaryStrategyOptions = {}): Strategy {
  const resolved = parseConfig("@ctxkit/strategy-summary", optionsSchema, options);
  const summarizer = resolved.summarizer ?? extractiveSummarizer();
  const prompts = resolvePrompts(resolved.prompts);
  const breaker = new SummaryBreaker(resolved.failureThreshold, resolved.cooldownRequests);

  async function apply(view: ViewDraft, context: StrategyContext): Promise<StrategyResult> {
    const unchanged: StrategyResult = { view, applied: false };
    const planned = resolveSizes(resolved, context.target, context.budget);
    // A forced compaction (`compact()`, like `/compact`) summarizes everything before the current turn, however little.
    let sizes = context.forced === true ? { ...planned, keepRecentTokens: 0, minNewTokens: 0 } : planned;
    // The summary in the draft, if any, is the best guess of the next one's size.
    let summaryTokens = sizes.maxSummaryTokens;
    for (const entry of view.entries) if (isSummaryEntry(entry)) summaryTokens = Math.max(summaryTokens, entry.tokens);
    const plan = planCoverage(view, {
      protectFirst: context.protectFirst,
      keepRecentTokens: sizes.keepRecentTokens,
      summarizeCurrentTurn: resolved.summarizeCurrentTurn,
      target: context.target,
      summaryTokens,
    });
    // A forced summary takes at most half of what it stands for, so a short history is worth one too.
    if (context.forced === true) {
      sizes = { ...sizes, maxSummaryTokens: Math.max(1, Math.min(sizes.maxSummaryTokens, Math.floor(plan.coveredTokens / 2))) };
    }
    const store = new CheckpointStore(context.state);
    const positionOf = new Map<number, number>();
    view.entries.forEach((entry, position) => entry.source.kind === "history" && positionOf.set(entry.source.index, position));
    const index: DraftIndex = { positionOf };
    // The summary already in the draft, or else the best stored checkpoint that still applies (a restart).
    const inDraft = findBaseInDraft(view, context.history, store, index);
    const cached = inDraft === undefined ? findCachedBase(view, plan, context.history, store, index) : undefined;
    const base = inDraft ?? cached?.base;
    const exposed = findExposedUnits(view, plan, base);
    const removable = new Set([...plan.coveredUnits, ...(cached?.units ?? []), ...exposed]);
    const coveredThrough = Math.max(base?.coveredThrough ?? -1, plan.coveredThrough, lastHistoryIndex(view, exposed));
    const { newIndices, verbatim, newTokens } = findNewIndices(view, plan, removable, index, base, coveredThrough);

    let summary: SummaryContent;
    let removed: ReadonlySet<number>;
    // Exposed units make even a trickle worth a call: without them the summary would claim messages it
    // neither holds nor keeps safe, and a later strategy could drop them unsummarized.
    if (exposed.size === 0 && (newTokens === 0 || newTokens < sizes.minNewTokens)) {
      // A trickle is not worth a call; a stored checkpoint can still be put back for free.
      if (cached === undefined || cached.units.size === 0) return unchanged;
      summary = { ...cached.base, ...cached.base.files };
      removed = cached.units;
    } else {
      const files = collectFiles(
        newIndices.map((historyIndex) => context.history[historyIndex]!),
        base?.files ?? NO_FILES,
      );
      const frame = createSummaryEntry({ text: "", coveredThrough, tokensBefore: 0, ...files }, context.countMessage);
      if (frame.tokens + sizes.maxSummaryTokens >= tokensOfUnits(view, plan, removable)) return unchanged;
      if (breaker.shouldSkip()) return unchanged;
      const originalTokens = (historyIndex: number): number => {
        const position = positionOf.get(historyIndex);
        if (position === undefined) return context.countMessage(context.history[historyIndex]!);
        const entry = view.entries[position]!;
        // Set on the entry by core strategies that shortened it, so nothing is re-tokenized.
        return entry.edit?.originalTokens ?? entry.tokens;
      };
      const settings: SummarizerSettings = {
        summarizer,
        prompts,
        ...sizes,
        maxToolOutputChars: resolved.maxToolOutputChars,
        timeoutMs: resolved.timeoutMs,
        instructions: context.instructions,
        counter: context.counter,
        countMessage: context.countMessage,
        previousRequest: context.previousRequest,
      };
      try {
        summary = await extendSummary(
          { base, newIndices, verbatim, coveredThrough, originalTokens },
          context.history,
          settings,
          store,
          context.signal,
        );
        breaker.recordSuccess();
      } catch (error) {
        if (context.signal.aborted) {
          context.emit("context:strategy_error", {
            strategy: SUMMARY_STRATEGY_NAME,
            error,
            consecutiveFailures: breaker.consecutiveFailures,
          });
          throw error;
        }
        context.emit("context:strategy_error", { strategy: SUMMARY_STRATEGY_NAME, error, consecutiveFailures: breaker.recordFailure() });
        return unchanged;
      }
      removed = removable;
    }
    const next = replaceCovered(view, plan, removed, createSummaryEntry(summary, context.countMessage));
    // The pipeline would discard a grown view anyway; saying so here keeps the step honest.
    return next.tokens < view.tokens ? { view: next, applied: true } : unchanged;
  }

  return { name: SUMMARY_STRATEGY_NAME, apply };
}
