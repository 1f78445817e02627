// A request's view: plan the budget, bring the tail up to date, compact when due, settle. No queue, no store.
import { ContextBudgetError } from "../errors.js";
import type { Message } from "../messages/message.js";
import type { PipelineStep, Strategy, StrategyStateStore } from "../pipeline/strategy.js";
import type { CompactOptions, RequestOptions } from "../protocol.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { CompactionPass } from "./compaction-pass.js";
import type { ResolvedContextConfig } from "./context-config.js";
import type { EventSink } from "./event-sink.js";
import type { PinSet } from "./pin-set.js";
import { type CompactionMode, RequestPlanner } from "./request-planner.js";
import { leadingInstructionTokens } from "./compaction-decision.js";
import type { SessionHistory } from "./session-history.js";
import { announceRepairs, type TailSnapshot, ViewTail } from "./view-tail.js";
import { createViewDraft } from "../pipeline/view-draft.js";
import type { ViewExplanation } from "../protocol.js";
import type { CompactionReceipts } from "./compaction-receipts.js";
import { explainEntries } from "./explain-view.js";
import type { FateSources } from "./message-fates.js";
import type { PreviewStates } from "./strategy-states.js";
import { readPartialCompaction } from "./partial-compaction.js";
import type { CompactionUndo } from "./undo-compaction.js";

export interface ViewBuilderParts {
  readonly config: ResolvedContextConfig;
  readonly counter: TokenCounter;
  readonly history: SessionHistory;
  readonly pins: PinSet;
  readonly events: EventSink;
  /** The configured strategies, each already given its own state store. */
  readonly strategies: readonly Strategy[];
  readonly stateStoreFor: (name: string) => StrategyStateStore;
  /** Where each compaction's receipt goes. */
  readonly receipts?: CompactionReceipts;
  /** Keeps the state each compaction replaced, for `undoCompaction`. */
  readonly undo?: CompactionUndo;
}

export interface BuiltView {
  readonly view: Message[];
  readonly steps: PipelineStep[];
  readonly tokensBefore: number;
}

const NEVER_ABORTED = new AbortController().signal;

/** Builds each request's view from the history; the facade calls it at the request's turn in the queue. */
export class ViewBuilder {
  readonly tail: ViewTail;
  readonly planner: RequestPlanner;
  private readonly compaction: CompactionPass;
  private readonly events: EventSink;
  private readonly parts: ViewBuilderParts;
  /**
   * The previous view, kept cheaply: its first `previousSettled` entries are still the view's own until a
   * compaction replaces them, and only the unsettled rest (a tool unit waiting for results) is copied.
   */
  private previousSettled = 0;
  private previousTail: Message[] = [];
  /** The previous view, taken before a compaction replaces it, for the receipt. */
  private previousAtCompaction: readonly Message[] = [];
  /** The tools the previous request was asked with and the model it was for, handed to the strategies beside its view. */
  private previousOptions: { readonly tools?: readonly unknown[] | undefined; readonly model?: string | undefined } = {};
  /** The view before each recent compaction of this process, by receipt id: what `undoTo` puts back. */
  private readonly beforeCompactions = new Map<string, { tail: TailSnapshot; previousSettled: number; previousTail: Message[] }>();

  constructor(parts: ViewBuilderParts) {
    const idleStrategies = parts.strategies.filter((strategy) => strategy.idleAfterMs !== undefined);
    this.planner = new RequestPlanner(parts.config, parts.counter, idleStrategies, () =>
      leadingInstructionTokens(this.tail.view.leadingEntries()),
    );
    this.tail = new ViewTail(parts.history, parts.counter, parts.pins);
    this.compaction = new CompactionPass({
      ...parts,
      tail: this.tail,
      planner: this.planner,
      previousView: () => this.previousAtCompaction,
      previousOptions: () => this.previousOptions,
    });
    this.events = parts.events;
    this.parts = parts;
  }

  /** Brings the view's tail up to date and decides the request's budget and whether (and why) it compacts. */
  async plan(options: RequestOptions, mode: CompactionMode) {
    const budget = await this.planner.budgetFor(options, mode);
    const { openUnitStart, repairs } = this.tail.refresh(this.planner.deferralLimit(mode, budget.budget));
    if (repairs.length > 0) await announceRepairs(this.events, repairs);
    const reason = this.planner.reasonFor(mode, this.tail.view.measure(), budget.budget, () => this.compaction.exceededLimits().length > 0);
    return { ...budget, openUnitStart, reason };
  }

  /** The view for a request with `options`, compacted first when `mode` or the plan says so; a forced one reads `through` and `instructions`. */
  async build(options: CompactOptions, mode: CompactionMode): Promise<BuiltView> {
    // A caller that gave up before its turn in the queue gets its abort, not a view it no longer wants.
    options.signal?.throwIfAborted();
    // Checked before anything changes, so a refused `through` leaves the view and the state as they were.
    const partial = mode.kind === "force" ? readPartialCompaction(options, this.parts.history.messages) : undefined;
    let plan = await this.plan(options, mode);
    const { openUnitStart, reason } = plan;
    const { view } = this.tail;
    // Counted only when read (`compact()`): a view served as it is may not be counted yet.
    const before = view.measure();
    let steps: PipelineStep[] = [];
    if (reason !== undefined) {
      this.previousAtCompaction = this.previousView();
      const before = { tail: this.tail.snapshot(), previousSettled: this.previousSettled, previousTail: this.previousTail };
      try {
        const compaction = await this.compaction.run(plan.budget, reason, options.signal ?? NEVER_ABORTED, plan.ceiling, partial);
        steps = compaction.steps;
        this.keepBefore(compaction.receiptId, before);
        // An overflow shrink below the minimal view was lifted to hold it: later requests start from there.
        plan = { ...plan, ...this.planner.holdView(plan, compaction.budget) };
      } catch (error) {
        if (error instanceof ContextBudgetError) {
          this.tail.settle(openUnitStart, true);
          this.rememberView();
        }
        throw error;
      }
    }
    const compacted = reason !== undefined;
    this.tail.settle(openUnitStart, compacted);
    this.rememberView();
    this.previousOptions = { tools: options.tools, model: options.model };
    this.planner.recordRequest(plan, { tokens: view.measure(), messageCount: view.messages.length }, compacted);
    return {
      view: view.messages.slice(),
      steps,
      get tokensBefore() {
        return before.exact();
      },
    };
  }

  /**
   * What the next request's view would be and why, computed as `build` would with `auto`, committing nothing:
   * no state is written (strategies get `preview`'s scratch state), no event is emitted, no repair is marked
   * announced, and the sticky view, the planner and the circuit breaker are left as they were.
   */
  async explain(options: RequestOptions, preview: PreviewStates): Promise<ViewExplanation> {
    options.signal?.throwIfAborted();
    const budget = await this.planner.budgetFor(options, { kind: "probe" });
    const draft = createViewDraft(this.tail.preview());
    const hasLimit = () => this.compaction.exceededLimits(draft).length > 0;
    const reason = this.planner.reasonFor({ kind: "auto" }, draft.tokens, budget.budget, hasLimit);
    let entries = draft.entries;
    let sources: FateSources = this.compaction.fateSources;
    let viewBudget = budget.budget;
    if (reason !== undefined) {
      const before = reason === "budget-change" ? createViewDraft(this.tail.preview(true)) : draft;
      const signal = options.signal ?? NEVER_ABORTED;
      const result = await this.compaction.preview(before, budget.budget, reason, signal, preview, budget.ceiling);
      ({ entries } = result.view);
      sources = result.attribution;
      viewBudget = result.budget;
    }
    const { history, config, counter } = this.parts;
    return explainEntries({
      history: history.messages,
      tokensOf: (index) => history.tokensOf(index),
      entries,
      sources,
      budget: viewBudget,
      compaction: reason,
      previousView: this.previousView(),
      toolTokens: this.planner.toolTokensOf(options),
      protectFirst: config.protectFirst,
      counter,
    });
  }

  /** The view the previous request returned, whole. */
  private previousView(): Message[] {
    // Nothing settled: the view (a first request's whole history, maybe not made into entries yet) is not read.
    if (this.previousSettled === 0) return this.previousTail.slice();
    return this.tail.view.messages.slice(0, this.previousSettled).concat(this.previousTail);
  }

  private rememberView(): void {
    const { view } = this.tail;
    this.previousSettled = view.settledCount;
    this.previousTail = view.messages.slice(view.settledCount);
  }

  /**
   * After `undoCompaction(id)`: the view from before compaction `id`, when this process made it and still
   * keeps it (the newest `keepCompactionReceipts`), so the next request gets it plus what was added since;
   * otherwise everything is forgotten and the next view is rebuilt from the history, as after a restart.
   */
  undoTo(id: string): void {
    const before = this.beforeCompactions.get(id);
    if (before === undefined) {
      this.reset();
      return;
    }
    this.tail.restore(before.tail);
    this.previousSettled = before.previousSettled;
    this.previousTail = before.previousTail;
    this.planner.reset();
    for (const kept of [...this.beforeCompactions.keys()]) if (kept >= id) this.beforeCompactions.delete(kept);
  }

  private keepBefore(
    receiptId: string | undefined,
    before: { tail: TailSnapshot; previousSettled: number; previousTail: Message[] },
  ): void {
    if (receiptId === undefined) return;
    this.beforeCompactions.set(receiptId, before);
    const oldest = this.beforeCompactions.keys().next().value;
    if (this.beforeCompactions.size > this.parts.config.keepCompactionReceipts && oldest !== undefined)
      this.beforeCompactions.delete(oldest);
  }

  /** Forgets everything derived from the old history. */
  reset(): void {
    this.beforeCompactions.clear();
    this.previousSettled = 0;
    this.previousTail = [];
    this.previousAtCompaction = [];
    this.previousOptions = {};
    this.tail.reset();
    this.planner.reset();
    this.compaction.reset();
  }
}
