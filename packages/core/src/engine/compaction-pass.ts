// One compaction pass: the configured strategies over the view, then last-resort passes if it still does not fit.
import { ContextBudgetError } from "../errors.js";
import type { CompactionReason, TargetShortfall } from "../events.js";
import { isSummaryEntry, readSummaryCoverage } from "../messages/summary-coverage.js";
import { CircuitBreaker } from "../pipeline/circuit-breaker.js";
import { runPipeline } from "../pipeline/run-pipeline.js";
import type { PipelineStep, Strategy, StrategyContext, StrategyStateStore, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { type DraftEntries, draftWithoutTruncatedPast, withTruncatedPast } from "../pipeline/truncated-past.js";
import { createViewDraft, elidedRunOf, isProtectedEntry } from "../pipeline/view-draft.js";
import { clearToolResults } from "../strategies/clear-tool-results.js";
import { createTrimLongText } from "../strategies/trim-long-text.js";
import { truncate } from "../strategies/truncate.js";
import { countMessageTokens } from "../tokens/count-message-tokens.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { Message } from "../messages/message.js";
import type { CompactionDecisionRecord, CompactionReceipt } from "../protocol.js";
import { buildReceipt, type CompactionReceipts } from "./compaction-receipts.js";
import type { ResolvedContextConfig } from "./context-config.js";
import { FateAttribution } from "./fate-attribution.js";
import { type PartialCompaction, protectAfter } from "./partial-compaction.js";
import type { CompactionUndo, StateCapture } from "./undo-compaction.js";
import { PREVIEW_STATES, type PreviewStates } from "./strategy-states.js";
import type { EventSink } from "./event-sink.js";
import type { RequestPlanner } from "./request-planner.js";
import type { SessionHistory } from "./session-history.js";
import type { PendingHistory } from "./sticky-view.js";
import { announceRepairs, type ViewTail } from "./view-tail.js";

// Last-resort passes when the configured strategies could not fit the budget, least harmful first:
// drop old units, then shorten long texts hard, then clear every tool result but the newest.
// The hard trim has a name of its own, so it shortens again what the configured trim-long-text left at
// its own, higher limit (each skips only its own edits).
// The last clear lists no identifiers: over the budget, a placeholder must be as short as it can be.
// Made on first use rather than at import (each strategy parses its config), so importing core parses no config.
let fallbackStrategies: readonly Strategy[] | undefined;
function getFallbackStrategies(): readonly Strategy[] {
  fallbackStrategies ??= [
    truncate(),
    createTrimLongText("trim-long-text (last resort)", { maxChars: 2_000 }),
    clearToolResults({ keepRecent: 1, maxIdentifiers: 0 }),
  ];
  return fallbackStrategies;
}

export interface CompactionPassParts {
  readonly config: ResolvedContextConfig;
  readonly counter: TokenCounter;
  readonly history: SessionHistory;
  readonly tail: ViewTail;
  readonly planner: RequestPlanner;
  readonly events: EventSink;
  /** The configured strategies, each already given its own state store. */
  readonly strategies: readonly Strategy[];
  readonly stateStoreFor: (name: string) => StrategyStateStore;
  /** Where each compaction's receipt goes; none are kept without it. */
  readonly receipts?: CompactionReceipts;
  /** The view the previous request returned, for the receipt's shared prefix. */
  readonly previousView?: () => readonly Message[];
  /** The tools the previous request was asked with and the model it was for, handed to the strategies with that view. */
  readonly previousOptions?: () => { readonly tools?: readonly unknown[] | undefined; readonly model?: string | undefined };
  /** Keeps the strategies' state each compaction replaced, beside its receipt, for `undoCompaction`. */
  readonly undo?: CompactionUndo;
}

/** Runs one compaction of the view for a budget. Touches neither the store nor the queue: the facade calls it at a request's turn. */
export class CompactionPass {
  private breaker = new CircuitBreaker();
  private readonly attribution = new FateAttribution();

  constructor(private readonly parts: CompactionPassParts) {}

  /**
   * Compacts the view for `budget` and replaces it; returns its steps and the budget it compacted for.
   * That is `budget`, or more, up to `ceiling`, when `budget` is shrunk below what the minimal view takes
   * (an overflow shrink never goes below a minimal view the window could hold). Throws `ContextBudgetError`
   * when even the last-resort passes leave it over that; the smaller view then stands for the next request.
   * With `partial` (a forced compaction only), only history messages up to `through` may change.
   */
  async run(
    requested: number,
    reason: CompactionReason,
    signal: AbortSignal,
    ceiling = requested,
    partial?: PartialCompaction,
  ): Promise<{ steps: PipelineStep[]; budget: number; receiptId?: string }> {
    const { config, events, planner, tail } = this.parts;
    const started = performance.now();
    const stateBefore = this.parts.undo?.capture();
    // The truncated past is left out of the draft only where the budget is the one asked for and every strategy runs.
    const elidable = partial === undefined && ceiling <= requested && reason !== "idle" && reason !== "limit";
    const before = await this.start(reason, elidable ? { target: planner.targetFor(requested, reason), budget: requested } : undefined);
    const budget = await this.budgetFor(before, requested, ceiling, signal);
    const messageCount = before.entries.length + (elidedRunOf(before)?.length ?? 0);
    await events.emit("context:pre_compact", { messageCount, tokenCount: before.tokens, budget, reason });
    const { view, steps, aimedFor } = await this.compute(before, budget, reason, signal, {
      breaker: this.breaker,
      attribution: this.attribution,
      partial,
    });
    tail.view.replace(view.entries);
    // Over the budget, the decisions stand: the next request starts from this smaller view instead of redoing them.
    planner.recordCompaction(budget, view.tokens);
    // The receipt follows the commit, the refused compaction's too: its smaller view stands for the next request.
    const receipt = await this.recordReceipt({
      reason,
      budget,
      target: aimedFor,
      tokensBefore: before.tokens,
      steps,
      view,
      decision: planner.decisionRecord(reason),
      partial,
      stateBefore,
    });
    if (view.tokens > budget) throw new ContextBudgetError(budget, minimalTokens(view, config.protectFirst));
    await this.reportIncluded(before, view);
    const shortOfTarget = view.tokens > aimedFor ? shortfall(view, aimedFor, config.protectFirst) : undefined;
    await events.emit("context:post_compact", {
      messageCount: view.entries.length,
      tokenCount: view.tokens,
      budget,
      steps,
      durationMs: performance.now() - started,
      reason,
      target: aimedFor,
      ...(shortOfTarget === undefined ? {} : { shortOfTarget }),
      ...(receipt === undefined
        ? {}
        : { receiptId: receipt.id, sharedPrefix: { ...receipt.sharedPrefix }, fateCounts: { ...receipt.fateCounts } }),
    });
    return { steps, budget, ...(receipt === undefined ? {} : { receiptId: receipt.id }) };
  }

  /**
   * The view a compaction of `before` would leave, computed as `run` would but committing nothing: strategies
   * get a scratch copy of their state, events go nowhere, and the circuit breaker and attribution are copies.
   * Returns the view, the budget it was made for, and the strategies each message's fate comes from.
   */
  async preview(
    before: ViewDraft,
    requested: number,
    reason: CompactionReason,
    signal: AbortSignal,
    preview: PreviewStates,
    ceiling = requested,
  ): Promise<{ view: ViewDraft; budget: number; attribution: FateAttribution }> {
    const budget = await this.budgetFor(before, requested, ceiling, signal, preview);
    const attribution = this.attribution.clone();
    const { view } = await this.compute(before, budget, reason, signal, { breaker: this.breaker.clone(), attribution, preview });
    return { view, budget, attribution };
  }

  /** Who took each message out of the committed view, for a view explained without a compaction. */
  get fateSources(): FateAttribution {
    return this.attribution;
  }

  /** `requested`, or more up to `ceiling`, when an overflow shrink went below what the minimal view takes. */
  private async budgetFor(
    before: ViewDraft,
    requested: number,
    ceiling: number,
    signal: AbortSignal,
    preview?: PreviewStates,
  ): Promise<number> {
    if (ceiling <= requested) return requested;
    return Math.max(requested, Math.min(ceiling, await this.minimalViewFloor(before, signal, preview)));
  }

  /** The configured strategies, then a window's limit, then the last-resort passes; commits nothing. */
  private async compute(
    before: ViewDraft,
    budget: number,
    reason: CompactionReason,
    signal: AbortSignal,
    run: { breaker: CircuitBreaker; attribution: FateAttribution; preview?: PreviewStates; partial?: PartialCompaction | undefined },
  ): Promise<{ view: ViewDraft; steps: PipelineStep[]; aimedFor: number }> {
    const { config, planner } = this.parts;
    const { through, instructions } = run.partial ?? {};
    const guard = through === undefined ? undefined : protectAfter(before, through);
    // A pass after a pause, or for a limit the view passed, runs only the strategies it is due for, and lets them do all they do.
    const dueAlone = reason === "idle" ? planner.dueIdleStrategies() : reason === "limit" ? this.exceededLimits(before) : undefined;
    const target = dueAlone !== undefined ? 0 : planner.targetFor(budget, reason);
    const strategies = dueAlone ?? this.parts.strategies;
    const { strategyTimeoutMs } = config;
    const onApplied = (strategy: string, from: ViewDraft, to: ViewDraft) => run.attribution.note(strategy, from, to);
    const context = {
      ...this.strategyContext(budget, target, signal, run.preview),
      forced: reason === "forced",
      ...(instructions === undefined ? {} : { instructions }),
      ...(run.preview === undefined ? this.previousRequest() : {}),
    };
    const result = await runPipeline(guard?.draft ?? before, strategies, context, { breaker: run.breaker, strategyTimeoutMs, onApplied });
    // Whole again when the truncation did not run (it stopped at its target before, or failed).
    let view = withTruncatedPast(result.view);
    const steps = result.steps;
    // The pipeline stops at its target, maybe before a window strategy ran: a limit holds on every view, so it runs now.
    const limitsLeft = dueAlone === undefined ? this.exceededLimits(view) : [];
    if (limitsLeft.length > 0) {
      const held = await runPipeline(view, limitsLeft, { ...context, target: 0 }, { breaker: run.breaker, strategyTimeoutMs, onApplied });
      view = held.view;
      steps.push(...held.steps);
    }
    if (view.tokens > budget) {
      const fallbackContext = this.strategyContext(budget, budget, signal, run.preview);
      const fallback = await runPipeline(view, getFallbackStrategies(), fallbackContext, { strategyTimeoutMs, onApplied });
      view = fallback.view;
      steps.push(...fallback.steps);
    }
    if (guard !== undefined) view = guard.restore(view);
    run.attribution.keepOnly(view.entries);
    // A pass that ran only its due strategies aimed for nothing but the budget.
    return { view, steps, aimedFor: dueAlone === undefined ? target : budget };
  }

  /** The view the model last saw, for a strategy that sends it again as a cached prefix; nothing before any request. */
  private previousRequest(): Pick<StrategyContext, "previousRequest"> {
    const messages = this.parts.previousView?.() ?? [];
    if (messages.length === 0) return {};
    const { tools, model } = this.parts.previousOptions?.() ?? {};
    return {
      previousRequest: { messages, ...(tools === undefined ? {} : { tools }), ...(model === undefined ? {} : { model }) },
    };
  }

  /** Writes the receipt of the compaction just committed; resolves to it, or undefined when receipts are not kept. */
  private async recordReceipt(compaction: {
    reason: CompactionReason;
    budget: number;
    target: number;
    tokensBefore: number;
    steps: readonly PipelineStep[];
    view: ViewDraft;
    decision: CompactionDecisionRecord | undefined;
    partial: PartialCompaction | undefined;
    stateBefore: StateCapture | undefined;
  }): Promise<CompactionReceipt | undefined> {
    const { receipts, previousView, history, undo } = this.parts;
    if (receipts === undefined) return undefined;
    const { partial, stateBefore, ...figures } = compaction;
    const receipt = buildReceipt({
      ...figures,
      ...(partial?.through === undefined ? {} : { through: partial.through }),
      ...(partial?.instructions === undefined ? {} : { hasInstructions: true }),
      entries: compaction.view.entries,
      tokensAfter: compaction.view.tokens,
      historyLength: history.length,
      previousView: previousView?.() ?? [],
      sources: this.attribution,
    });
    // Kept before the receipt: a receipt listed is one that can be undone, until the bound drops its state.
    if (undo !== undefined && stateBefore !== undefined) await undo.keepReplaced(receipt.id, stateBefore);
    await receipts.record(receipt);
    return receipt;
  }

  /**
   * What the last-resort passes alone leave of `view` with nothing else to reach for (the minimal view's
   * tokens), with a little room: the real passes may start from texts the configured strategies already
   * shortened, whose trim markers count differently by a token or so.
   */
  private async minimalViewFloor(view: ViewDraft, signal: AbortSignal, preview?: PreviewStates): Promise<number> {
    const { strategyTimeoutMs } = this.parts.config;
    const context = this.strategyContext(0, 0, signal, preview);
    const { tokens } = (await runPipeline(view, getFallbackStrategies(), context, { strategyTimeoutMs })).view;
    return Math.ceil(tokens * 1.01) + 16;
  }

  /** The strategies that hold a limit on every view (a message window) and whose limit `view` (by default the view as it stands) has passed. */
  exceededLimits(view?: ViewDraft): Strategy[] {
    const limited = this.parts.strategies.filter((strategy) => strategy.exceedsLimit !== undefined);
    if (limited.length === 0) return limited;
    const draft = view ?? createViewDraft(this.parts.tail.view.entries);
    return limited.filter((strategy) => strategy.exceedsLimit!(draft, { protectFirst: this.parts.config.protectFirst }));
  }

  /** A new history starts with a closed circuit: strategies that failed on the old one are tried again. */
  reset(): void {
    this.breaker = new CircuitBreaker();
    this.attribution.reset();
  }

  /**
   * The draft a compaction starts from: the current view, or the whole history again when the view
   * grows back for a larger budget. A forced or overflow compaction only ever shrinks the view.
   */
  private async start(reason: CompactionReason, truncation?: { target: number; budget: number }): Promise<ViewDraft> {
    const { tail, events } = this.parts;
    let entries: readonly ViewEntry[] | DraftEntries;
    if (reason === "budget-change") {
      const rebuilt = tail.rebuild();
      await announceRepairs(events, rebuilt.repairs);
      entries = rebuilt.entries;
    } else {
      const pending = tail.view.pendingHistory;
      entries = pending === undefined ? tail.view.entries : pendingEntries(pending);
    }
    // A compaction of a long history drafts what its strategies read, not the past its truncation drops anyway.
    const plan = truncation === undefined ? undefined : { ...truncation, protectFirst: this.parts.config.protectFirst };
    const draft = plan === undefined ? undefined : draftWithoutTruncatedPast(entries, this.parts.strategies, plan);
    return draft ?? createViewDraft(Array.isArray(entries) ? (entries as readonly ViewEntry[]) : tail.view.entries);
  }

  /** Announces synthetic content (a summary, say) that a compaction brought into the view. */
  private async reportIncluded(before: ViewDraft, after: ViewDraft): Promise<void> {
    // The few synthetic messages of the new view are looked for in the old one, rather than a set made of all its messages.
    const synthetic = new Set<Message>();
    for (const entry of after.entries) if (entry.source.kind === "synthetic") synthetic.add(entry.message);
    const previous = new Set<Message>();
    if (synthetic.size > 0)
      for (const entry of before.entries)
        if (entry.source.kind === "synthetic" && synthetic.has(entry.message)) previous.add(entry.message);
    const added = new Map<string, { messageCount: number; tokenCount: number; coveredFrom?: number; coveredThrough?: number }>();
    for (const entry of after.entries) {
      if (entry.source.kind !== "synthetic" || previous.has(entry.message)) continue;
      const totals = added.get(entry.source.origin) ?? { messageCount: 0, tokenCount: 0 };
      totals.messageCount += 1;
      totals.tokenCount += entry.tokens;
      const coveredThrough = isSummaryEntry(entry) ? readSummaryCoverage(entry.message) : undefined;
      if (coveredThrough !== undefined) Object.assign(totals, { coveredFrom: firstReplaced(after, coveredThrough), coveredThrough });
      added.set(entry.source.origin, totals);
    }
    for (const [source, totals] of added) await this.parts.events.emit("context:include", { source, ...totals });
  }

  /** With `preview`: scratch state for every strategy (carried to the wrapped ones under `PREVIEW_STATES`), and no events. */
  private strategyContext(budget: number, target: number, signal: AbortSignal, preview?: PreviewStates): StrategyContext {
    const { config, counter, events } = this.parts;
    const context: StrategyContext = {
      budget,
      target,
      counter,
      history: this.parts.history.messages,
      signal,
      protectFirst: config.protectFirst,
      state: preview?.storeFor("(fallback)") ?? this.parts.stateStoreFor("(fallback)"),
      emit: preview === undefined ? (event, payload) => void events.emit(event, payload) : () => {},
      countMessage: (message) => countMessageTokens(message, counter),
    };
    return preview === undefined ? context : Object.assign(context, { [PREVIEW_STATES]: preview });
  }
}

/**
 * Tokens of what no strategy may drop, what `ContextBudgetError.required` reports: every unit
 * holding a protected message, whole, since a unit is kept or dropped whole.
 */
export function minimalTokens(view: ViewDraft, protectFirst: number): number {
  let tokens = 0;
  for (const unit of view.units) {
    let isKept = false;
    let unitTokens = 0;
    for (let index = unit.start; index < unit.end; index += 1) {
      unitTokens += view.entries[index]!.tokens;
      if (!isProtectedEntry(view, index, protectFirst).canDrop) isKept = true;
    }
    if (isKept) tokens += unitTokens;
  }
  return tokens;
}

/** Why `view`, above `target`, went no further: what may not be dropped passes the target, or the strategies stopped short. */
function shortfall(view: ViewDraft, target: number, protectFirst: number): TargetShortfall {
  const requiredTokens = minimalTokens(view, protectFirst);
  return { reason: requiredTokens > target ? "protected" : "strategies", requiredTokens };
}

/** The first history index up to `coveredThrough` that `view` no longer holds verbatim: where a summary's range begins. */
export function firstReplaced(view: ViewDraft, coveredThrough: number): number {
  const verbatim = new Set<number>();
  for (const entry of view.entries)
    if (entry.source.kind === "history" && entry.source.index <= coveredThrough) verbatim.add(entry.source.index);
  let index = 0;
  while (index < coveredThrough && verbatim.has(index)) index += 1;
  return index;
}

/** A pending history as a draft reads it: each entry made once, when first read; its kinds and counts from the history's record. */
function pendingEntries(pending: PendingHistory): DraftEntries {
  const made = new Array<ViewEntry | undefined>(pending.count);
  return {
    length: pending.count,
    at: (position) => (made[position] ??= pending.entryAt(position)),
    messageAt: pending.messageAt,
    tokensAt: pending.tokensAt,
    kindAt: (position) => pending.kinds[position]!,
  };
}
