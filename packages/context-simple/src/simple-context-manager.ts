// The reference context manager: an immutable history, and views that fit the budget without rewriting it.
import {
  CircuitBreaker,
  clearToolResults,
  ContextBudgetError,
  countMessageTokens,
  createMemoryStateStore,
  createViewDraft,
  findToolUnits,
  hasToolCalls,
  isProtectedEntry,
  parseMessage,
  parseMessages,
  parseConfig,
  repairToolPairs,
  resolveBudget,
  resolveTokenCounter,
  runPipeline,
  trimLongText,
  truncate,
  type CompactResult,
  type ContextManager,
  type ContextUsage,
  type Message,
  type PipelineStep,
  type RequestOptions,
  type Strategy,
  type StrategyContext,
  type StrategyStateStore,
  type TokenCounter,
  type ViewDraft,
  type ViewEntry,
} from "@ctxkit/core";
import { configSchema, FALLBACK_BUDGET, type ResolvedSimpleContextConfig, type SimpleContextConfig } from "./config-schema.js";
import { EventSink } from "./event-sink.js";
import { OperationQueue } from "./operation-queue.js";
import { resolveStrategies } from "./resolve-strategies.js";
import { StickyView } from "./sticky-view.js";

/** Hooks for packages that build on this manager (a persistent store, say); not part of the config. */
export interface SimpleContextExtensions {
  /** Where each strategy keeps its state; an in-memory store per strategy by default. */
  stateStoreFor?: (strategyName: string) => StrategyStateStore;
  /**
   * Every message given to `addMessage` and `setMessages` is already a parsed, deep-frozen copy (the
   * wrapper parsed it, or loaded it from its own journal), so it is stored as given, not parsed again.
   */
  isInputParsed?: boolean;
}

type CompactionMode = { kind: "auto" } | { kind: "force" } | { kind: "overflow" };

// After a provider rejects a view as too long, later budgets stay this far below the rejected size.
const OVERFLOW_SHRINK = 0.75;
// Last-resort passes when the configured strategies could not fit the budget, least harmful first:
// drop old units, then shorten long texts hard, then clear every tool result but the newest.
const FALLBACK_STRATEGIES: readonly Strategy[] = [truncate(), trimLongText({ maxChars: 2_000 }), clearToolResults({ keepRecent: 1 })];
const NEVER_ABORTED = new AbortController().signal;

export class SimpleContextManager implements ContextManager {
  readonly config: ResolvedSimpleContextConfig;
  readonly counter: TokenCounter;
  private readonly strategies: readonly Strategy[];
  private readonly events = new EventSink();
  private readonly queue = new OperationQueue();
  private breaker = new CircuitBreaker();
  private readonly stateStores = new Map<string, StrategyStateStore>();
  private readonly extensions: SimpleContextExtensions;

  private history: Message[] = [];
  /** Token count of each history message, filled the first time a view needs it. */
  private tokenCounts: number[] = [];
  private readonly view = new StickyView();
  /**
   * Compaction decisions for messages of a trailing tool unit still waiting for results: that unit
   * is rebuilt from the history on each request, and these keep a committed compaction's edits.
   */
  private openUnitEdits = new Map<number, ViewEntry>();
  /** Repairs already reported, so a repair is announced once, not on every request. */
  private reportedRepairs = new Set<string>();
  /** True when the last compaction could not get under the threshold: then only the budget triggers. */
  private floorAboveThreshold = false;
  private overflowScale = 1;
  private lastUsage: ContextUsage | undefined;

  constructor(config: SimpleContextConfig = {}, extensions: SimpleContextExtensions = {}) {
    this.config = parseConfig("@ctxkit/context-simple", configSchema, config);
    this.counter = resolveTokenCounter(this.config.tokenizer);
    this.strategies = resolveStrategies(this.config.strategies).map((strategy) => this.withOwnState(strategy));
    this.extensions = extensions;
    if (this.config.onEvent) this.events.add(this.config.onEvent);
  }

  /** Sends events to another handler too (the coordinator's hooks, when mounted). Returns a remover. */
  addEventHandler(handler: Parameters<EventSink["add"]>[0]): () => void {
    return this.events.add(handler);
  }

  addMessage(message: Message): Promise<void> {
    return this.queue.run(() => {
      this.history.push(this.extensions.isInputParsed === true ? message : parseMessage(message));
    });
  }

  getMessages(): Promise<Message[]> {
    return this.queue.run(() => this.history.slice());
  }

  setMessages(messages: Message[]): Promise<void> {
    return this.queue.run(() => {
      const parsed = this.extensions.isInputParsed === true ? messages.slice() : parseMessages(messages);
      this.reset();
      this.history = parsed;
    });
  }

  clear(): Promise<void> {
    return this.queue.run(() => {
      this.reset();
      this.history = [];
      this.overflowScale = 1;
    });
  }

  getMessagesForRequest(options: RequestOptions = {}): Promise<Message[]> {
    return this.queue.run(async () => (await this.buildView(options, { kind: "auto" })).view);
  }

  compact(options: RequestOptions = {}): Promise<CompactResult> {
    return this.queue.run(async () => {
      const result = await this.buildView(options, { kind: "force" });
      return {
        compacted: result.steps.some((step) => step.applied),
        tokensBefore: result.tokensBefore,
        tokensAfter: this.view.tokens,
        steps: result.steps,
      };
    });
  }

  recoverOverflow(_error: unknown, options: RequestOptions = {}): Promise<Message[]> {
    return this.queue.run(async () => (await this.buildView(options, { kind: "overflow" })).view);
  }

  usage(): Promise<ContextUsage | undefined> {
    return this.queue.run(() => (this.lastUsage === undefined ? undefined : { ...this.lastUsage }));
  }

  private reset(): void {
    this.tokenCounts = [];
    this.view.reset();
    this.openUnitEdits = new Map();
    this.reportedRepairs = new Set();
    this.floorAboveThreshold = false;
    this.lastUsage = undefined;
    this.breaker = new CircuitBreaker();
  }

  private async resolveRequestBudget(options: RequestOptions, mode: CompactionMode): Promise<number> {
    const nominal =
      (await resolveBudget({
        tokenBudget: options.tokenBudget,
        provider: options.provider,
        safetyMargin: this.config.safetyMargin,
        maxTokens: this.config.maxTokens,
      })) ?? FALLBACK_BUDGET;
    if (mode.kind === "overflow" && nominal > 0) {
      // The provider counted more than we did: shrink below what it just rejected, and stay there.
      const rejected = Math.min(this.lastUsage?.tokens ?? nominal, nominal * this.overflowScale);
      this.overflowScale = (rejected * OVERFLOW_SHRINK) / nominal;
    }
    return Math.floor(nominal * this.overflowScale);
  }

  private async buildView(
    options: RequestOptions,
    mode: CompactionMode,
  ): Promise<{ view: Message[]; steps: PipelineStep[]; tokensBefore: number }> {
    // A caller that gave up before its turn in the queue gets its abort, not a view it no longer wants.
    options.signal?.throwIfAborted();
    const budget = await this.resolveRequestBudget(options, mode);
    const openUnitStart = await this.refreshTail();
    const tokensBefore = this.view.tokens;
    const trigger = this.floorAboveThreshold ? budget : this.config.compactThreshold * budget;
    let steps: PipelineStep[] = [];
    let compacted = false;
    if (mode.kind !== "auto" || tokensBefore > trigger) {
      try {
        steps = await this.compactView(budget, options.signal ?? NEVER_ABORTED);
      } catch (error) {
        if (error instanceof ContextBudgetError) this.settle(openUnitStart, true);
        throw error;
      }
      compacted = true;
    }
    this.settle(openUnitStart, compacted);
    this.lastUsage = {
      tokens: this.view.tokens,
      budget,
      messageCount: this.view.messages.length,
      compacted: compacted || this.lastUsage?.compacted === true,
      counter: this.counter.name,
    };
    return { view: this.view.messages.slice(), steps, tokensBefore };
  }

  /**
   * Rebuilds the view's unsettled end from the history: repairs broken pairs and counts messages
   * not counted yet, so the cost is proportional to what was added since the last request.
   * Returns where the settled part must end: the start of a trailing tool unit still waiting for
   * results (a later result would change it), or the end of the history.
   */
  private async refreshTail(): Promise<number> {
    const from = this.view.settledUntil;
    const tail = this.history.slice(from);
    const repaired = repairToolPairs(tail);
    const entries: ViewEntry[] = repaired.messages.map((message, position) => {
      const source = repaired.sources[position];
      if (source === null || source === undefined) {
        return { message, tokens: countMessageTokens(message, this.counter), source: { kind: "synthetic", origin: "repair" } };
      }
      const index = from + source;
      return this.openUnitEdits.get(index) ?? { message, tokens: this.tokensOf(index), source: { kind: "history", index } };
    });
    this.view.setTail(entries);
    for (const repair of repaired.repairs) {
      const key = `${repair.kind}:${from + repair.index}`;
      if (this.reportedRepairs.has(key)) continue;
      this.reportedRepairs.add(key);
      await this.events.emit("context:repair", { kind: repair.kind, toolCallIds: repair.toolCallIds });
    }
    return from + this.openUnitStart(tail);
  }

  private settle(openUnitStart: number, compacted: boolean): void {
    if (compacted) this.keepOpenUnitEdits(openUnitStart);
    this.view.settle(openUnitStart);
    for (const index of this.openUnitEdits.keys()) if (index < openUnitStart) this.openUnitEdits.delete(index);
  }

  /** Remembers what the last compaction changed in the unsettled open unit, so it stays committed. */
  private keepOpenUnitEdits(openUnitStart: number): void {
    this.openUnitEdits = new Map();
    for (const entry of this.view.entries) {
      const { source } = entry;
      if (source.kind === "history" && source.index >= openUnitStart && entry.message !== this.history[source.index]) {
        this.openUnitEdits.set(source.index, entry);
      }
    }
  }

  private openUnitStart(tail: readonly Message[]): number {
    const last = findToolUnits(tail).at(-1);
    if (last === undefined || last.kind !== "tool") return tail.length;
    const opener = tail[last.start]!;
    const answered = last.end - last.start - 1;
    return hasToolCalls(opener) && answered < opener.tool_calls.length ? last.start : tail.length;
  }

  private tokensOf(index: number): number {
    let tokens = this.tokenCounts[index];
    if (tokens === undefined) {
      tokens = countMessageTokens(this.history[index]!, this.counter);
      this.tokenCounts[index] = tokens;
    }
    return tokens;
  }

  private async compactView(budget: number, signal: AbortSignal): Promise<PipelineStep[]> {
    const started = performance.now();
    const before = createViewDraft(this.view.entries);
    await this.events.emit("context:pre_compact", { messageCount: before.entries.length, tokenCount: before.tokens, budget });
    const target = Math.floor(this.config.targetRatio * budget);
    const result = await runPipeline(before, this.strategies, this.strategyContext(budget, target, signal), { breaker: this.breaker });
    let view = result.view;
    const steps = result.steps;
    if (view.tokens > budget) {
      const fallback = await runPipeline(view, FALLBACK_STRATEGIES, this.strategyContext(budget, budget, signal));
      view = fallback.view;
      steps.push(...fallback.steps);
    }
    this.view.replace(view.entries);
    if (view.tokens > budget) {
      // The decisions stand: the next request starts from this smaller view instead of redoing them.
      this.floorAboveThreshold = true;
      throw new ContextBudgetError(budget, this.minimalTokens(view));
    }
    this.floorAboveThreshold = view.tokens > this.config.compactThreshold * budget;
    await this.reportIncluded(before, view);
    await this.events.emit("context:post_compact", {
      messageCount: view.entries.length,
      tokenCount: view.tokens,
      budget,
      steps,
      durationMs: performance.now() - started,
    });
    return steps;
  }

  /**
   * Tokens of what no strategy may drop, what `ContextBudgetError.required` reports: every unit
   * holding a protected message, whole, since a unit is kept or dropped whole.
   */
  private minimalTokens(view: ViewDraft): number {
    let tokens = 0;
    for (const unit of view.units) {
      let isKept = false;
      let unitTokens = 0;
      for (let index = unit.start; index < unit.end; index += 1) {
        unitTokens += view.entries[index]!.tokens;
        if (!isProtectedEntry(view, index, this.config.protectFirst).canDrop) isKept = true;
      }
      if (isKept) tokens += unitTokens;
    }
    return tokens;
  }

  /** Announces synthetic content (a summary, say) that a compaction brought into the view. */
  private async reportIncluded(before: ViewDraft, after: ViewDraft): Promise<void> {
    const previous = new Set(before.entries.map((entry) => entry.message));
    const added = new Map<string, { messageCount: number; tokenCount: number }>();
    for (const entry of after.entries) {
      if (entry.source.kind !== "synthetic" || previous.has(entry.message)) continue;
      const totals = added.get(entry.source.origin) ?? { messageCount: 0, tokenCount: 0 };
      totals.messageCount += 1;
      totals.tokenCount += entry.tokens;
      added.set(entry.source.origin, totals);
    }
    for (const [source, totals] of added) await this.events.emit("context:include", { source, ...totals });
  }

  private strategyContext(budget: number, target: number, signal: AbortSignal): StrategyContext {
    return {
      budget,
      target,
      counter: this.counter,
      history: this.history,
      signal,
      protectFirst: this.config.protectFirst,
      state: this.stateStoreFor("(fallback)"),
      emit: (event, payload) => void this.events.emit(event, payload),
      countMessage: (message) => countMessageTokens(message, this.counter),
    };
  }

  /** Gives a strategy its own state store, whatever context the pipeline hands it. */
  private withOwnState(strategy: Strategy): Strategy {
    return {
      name: strategy.name,
      apply: (view, context) => strategy.apply(view, { ...context, state: this.stateStoreFor(strategy.name) }),
    };
  }

  private stateStoreFor(name: string): StrategyStateStore {
    let store = this.stateStores.get(name);
    if (store === undefined) {
      store = this.extensions.stateStoreFor?.(name) ?? createMemoryStateStore();
      this.stateStores.set(name, store);
    }
    return store;
  }
}

export function createSimpleContext(config: SimpleContextConfig = {}, extensions: SimpleContextExtensions = {}): SimpleContextManager {
  return new SimpleContextManager(config, extensions);
}

export { configSchema };
