// The view engine every context module shares: an immutable history kept in a store, and views that fit the budget without rewriting it.
import { ContextBudgetError, ContextClosedError, ContextValidationError } from "../errors.js";
import { hasToolCalls, type Message } from "../messages/message.js";
import { deepFreeze } from "../messages/deep-freeze.js";
import { parseMessage, parseMessages } from "../messages/parse-message.js";
import { parseConfig } from "../modules/parse-config.js";
import { CircuitBreaker } from "../pipeline/circuit-breaker.js";
import { runPipeline } from "../pipeline/run-pipeline.js";
import type { CompactionReason } from "../events.js";
import type { PipelineStep, Strategy, StrategyContext, StrategyStateStore, ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { createViewDraft, isProtectedEntry } from "../pipeline/view-draft.js";
import { isSummaryEntry, readSummaryCoverage } from "../messages/summary-coverage.js";
import type {
  CompactCapability,
  CompactResult,
  ContextManager,
  ContextUsage,
  OverflowRecoveryCapability,
  ProviderUsage,
  ProviderUsageCapability,
  RequestOptions,
  ShouldCompactCapability,
  UsageCapability,
} from "../protocol.js";
import type { MessageStore, StoredSession, StoreUpdate } from "../store/message-store.js";
import { clearToolResults } from "../strategies/clear-tool-results.js";
import { trimLongText } from "../strategies/trim-long-text.js";
import { truncate } from "../strategies/truncate.js";
import { countMessageTokens } from "../tokens/count-message-tokens.js";
import { resolveTokenCounter } from "../tokens/resolve-token-counter.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { findToolUnits } from "../units/find-tool-units.js";
import { repairToolPairs } from "../units/repair-tool-pairs.js";
import type { ToolPairRepair } from "../units/tool-unit.js";
import { abortable } from "./abortable.js";
import { contextConfigSchema, type ContextConfig, type EventHandler, type ResolvedContextConfig } from "./context-config.js";
import { EventSink } from "./event-sink.js";
import { OperationQueue } from "./operation-queue.js";
import { OverflowShrink } from "./overflow-shrink.js";
import { PIN_STATE, PinSet } from "./pin-set.js";
import { RequestOverhead } from "./request-overhead.js";
import { resolveRequestBudget } from "./resolve-request-budget.js";
import { presetStrategies, resolveStrategies } from "./resolve-strategies.js";
import { StickyView } from "./sticky-view.js";
import { StoreStrategyState } from "./store-strategy-state.js";
import { UsageCalibration } from "./usage-calibration.js";

export interface ContextEngineOptions {
  /** The module whose config this is, for `ContextConfigError` (default `@ctxkit/core`). */
  moduleName?: string;
  /** Receives every event from the start, including those emitted while opening (`context:recover`). */
  onEvent?: EventHandler;
}

/** `probe`: decide as `auto` would, changing nothing that the next request depends on. */
type CompactionMode = { kind: "auto" } | { kind: "force" } | { kind: "overflow" } | { kind: "probe" };

// Last-resort passes when the configured strategies could not fit the budget, least harmful first:
// drop old units, then shorten long texts hard, then clear every tool result but the newest.
// The last clear lists no identifiers: over the budget, a placeholder must be as short as it can be.
const FALLBACK_STRATEGIES: readonly Strategy[] = [truncate(), trimLongText({ maxChars: 2_000 }), clearToolResults({ keepRecent: 1, maxIdentifiers: 0 })];
const NEVER_ABORTED = new AbortController().signal;
// A view compacted for a budget this much smaller than the current one is rebuilt from the history at the next compaction.
const REGROW_RATIO = 1.25;

/**
 * A context manager over any `MessageStore`. Every write goes to the store first, in call order; every
 * read is served from memory (after a `sync` for a store that several processes write). Operations are
 * serialized; a failed write stops the manager with `ContextClosedError`.
 */
export class ContextEngine implements ContextManager, CompactCapability, OverflowRecoveryCapability, UsageCapability, ProviderUsageCapability, ShouldCompactCapability {
  readonly config: ResolvedContextConfig;
  readonly counter: TokenCounter;
  /** Settles once the store is open and loaded; rejects with the reason it could not be (the manager is then closed). */
  readonly opened: Promise<void>;
  private readonly store: MessageStore;
  private readonly strategies: readonly Strategy[];
  /** Strategies that also run after a pause (`idleAfterMs`); empty in the usual case, which then costs nothing. */
  private readonly idleStrategies: readonly Strategy[];
  /** Strategies with `observe`, run between requests; empty in the usual case, which then costs nothing. */
  private readonly observers: readonly Strategy[];
  /** The observe pass running now, if any; the next request starts the next one once it is done. */
  private background: Promise<void> | undefined;
  private readonly backgroundAbort = new AbortController();
  /** When the last request was served (`Date.now()`), read only when `idleStrategies` is not empty. */
  private lastRequestAt: number | undefined;
  private readonly events: EventSink;
  private readonly queue = new OperationQueue();
  private readonly strategyState: StoreStrategyState;
  private readonly stateStores = new Map<string, StrategyStateStore>();
  private readonly overflow = new OverflowShrink();
  private readonly overhead: RequestOverhead;
  private readonly calibration = new UsageCalibration();
  private readonly pins: PinSet;
  private breaker = new CircuitBreaker();
  private isOpen = false;
  private failure: { readonly error: unknown } | undefined;
  private closing: Promise<void> | undefined;
  /** Whether `setMessages` is ignored: the store held messages when it was opened, and `clear()` was not called since. */
  private ignoresSetMessages = false;

  private history: Message[] = [];
  /** Token count of each history message, filled the first time a view needs it. */
  private tokenCounts: number[] = [];
  private readonly view = new StickyView();
  /** The budget the current view was last compacted for; a much larger budget rebuilds it from the history. */
  private compactedFor: number | undefined;
  /**
   * Compaction decisions for messages of a trailing tool unit still waiting for results: that unit
   * is rebuilt from the history on each request, and these keep a committed compaction's edits.
   */
  private openUnitEdits = new Map<number, ViewEntry>();
  /** Repairs already reported, so a repair is announced once, not on every request. */
  private reportedRepairs = new Set<string>();
  /** True when the last compaction could not get under the threshold: then only the budget triggers. */
  private floorAboveThreshold = false;
  private lastUsage: ContextUsage | undefined;

  /** Opens `store` in the background; every operation waits for it. `createContextManager` awaits it for you. */
  constructor(store: MessageStore, config: ContextConfig = {}, options: ContextEngineOptions = {}) {
    this.config = parseConfig(options.moduleName ?? "@ctxkit/core", contextConfigSchema, config);
    this.store = store;
    this.counter = resolveTokenCounter(this.config.tokenizer);
    this.events = new EventSink(this.config.eventHandlerTimeoutMs);
    this.overhead = new RequestOverhead(this.counter);
    this.strategyState = new StoreStrategyState(new Map(), (change) => this.write(() => this.store.writeState(change)));
    this.pins = new PinSet(this.stateStoreFor(PIN_STATE));
    this.strategies = resolveStrategies(presetStrategies(this.config)).map((strategy) => this.withOwnState(strategy));
    this.idleStrategies = this.strategies.filter((strategy) => strategy.idleAfterMs !== undefined);
    this.observers = this.strategies.filter((strategy) => strategy.observe !== undefined);
    if (this.config.onEvent) this.events.add(this.config.onEvent);
    if (options.onEvent) this.events.add(options.onEvent);
    this.opened = this.queue.run(() => this.open());
    // The first reaction to the open: writes called from now on go straight to the store, after those that waited for it.
    this.opened.then(
      () => void (this.isOpen = true),
      () => {},
    );
  }

  get sessionId(): string {
    return this.store.sessionId;
  }

  /** Where the session lives: a journal file, a table, or memory. */
  get location(): string {
    return this.store.location;
  }

  /** Whether `setMessages` is ignored: the store held messages when it was opened, and `clear()` was not called since. */
  get isResumed(): boolean {
    return this.ignoresSetMessages;
  }

  /** Sends events to another handler too (the coordinator's hooks, when mounted). Returns a remover. */
  addEventHandler(handler: EventHandler): () => void {
    return this.events.add(handler);
  }

  /** Resolves once the message is in memory and as durable as the store promises. */
  addMessage(message: Message): Promise<void> {
    return this.whenUsable(() => {
      // In call order and before any await: validate, hand the record to the store, then apply it in memory.
      const parsed = parseMessage(message);
      const durable = this.write(() => this.store.append(parsed));
      const applied = this.queue.run(() => {
        // A shared store hands every message back through sync, in the one order all writers see.
        if (this.store.sync === undefined) this.history.push(parsed);
      });
      return settleBoth(durable, applied);
    });
  }

  getMessages(): Promise<Message[]> {
    return this.read(undefined, async () => this.history.slice());
  }

  /**
   * Replaces the history. Ignored when the store held messages at open: the store is then the complete
   * history, and the caller's copy (a transcript without system messages, say) is not.
   */
  setMessages(messages: Message[]): Promise<void> {
    return this.whenUsable(() => {
      const parsed = parseMessages(messages);
      if (this.ignoresSetMessages) return this.queue.run(() => this.reportIgnoredSet(parsed.length));
      const durable = this.write(() => this.store.replace(parsed, this.strategyState.snapshot()));
      const applied = this.queue.run(() => this.reset(parsed));
      return settleBoth(durable, applied);
    });
  }

  /** Empties the history. Afterwards `setMessages` is accepted again. */
  clear(): Promise<void> {
    return this.whenUsable(() => {
      this.ignoresSetMessages = false;
      const durable = this.write(() => this.store.clear(this.strategyState.snapshot()));
      const applied = this.queue.run(async () => {
        this.ignoresSetMessages = false;
        this.reset([]);
        // Pins name history indices, and the history they named is gone.
        await this.pins.clear();
      });
      return settleBoth(durable, applied);
    });
  }

  getMessagesForRequest(options: RequestOptions = {}): Promise<Message[]> {
    return this.request(options, async () => {
      const { view } = await this.buildView(options, { kind: "auto" });
      if (this.observers.length > 0) this.startObservers();
      return view;
    });
  }

  /** Resolves once the strategies' work between requests (`observe`) that earlier requests started has finished. */
  async flushBackground(): Promise<void> {
    while (this.background !== undefined) await this.background;
  }

  /** Starts the observers after this turn, so none of their work, not even a synchronous start, delays the answer. */
  private startObservers(): void {
    if (this.background !== undefined || this.backgroundAbort.signal.aborted) return;
    const history = this.history.slice();
    const signal = this.backgroundAbort.signal;
    const run = async (): Promise<void> => {
      await new Promise((resolve) => setImmediate(resolve));
      for (const strategy of this.observers) {
        if (signal.aborted) return;
        try {
          await strategy.observe!({
            history,
            state: this.stateStoreFor(strategy.name),
            counter: this.counter,
            signal,
            emit: (event, payload) => void this.events.emit(event, payload),
            countMessage: (message) => countMessageTokens(message, this.counter),
          });
        } catch (error) {
          if (!signal.aborted) await this.events.emit("context:strategy_error", { strategy: strategy.name, error, consecutiveFailures: 1 });
        }
      }
    };
    this.background = run().finally(() => {
      this.background = undefined;
    });
  }

  compact(options: RequestOptions = {}): Promise<CompactResult> {
    return this.request(options, async () => {
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
    return this.request(options, async () => (await this.buildView(options, { kind: "overflow" })).view);
  }

  /**
   * Takes the provider's count for the last view (plus its tools). A steady gap between it and the
   * manager's own count scales later budgets, announced with `context:calibrate`.
   */
  reportUsage(usage: ProviderUsage): Promise<void> {
    return this.whenUsable(() => {
      const inputTokens = usage?.inputTokens;
      if (typeof inputTokens !== "number" || !Number.isFinite(inputTokens) || inputTokens < 0) {
        throw new ContextValidationError([{ path: "inputTokens", message: `must be the provider's input token count, a finite number ≥ 0; received ${String(inputTokens)}` }]);
      }
      return this.queue.run(async () => {
        if (this.lastUsage === undefined) return;
        const calibration = this.calibration.record(inputTokens, this.lastUsage.tokens + (this.lastUsage.overheadTokens ?? 0));
        if (calibration !== undefined) await this.events.emit("context:calibrate", calibration);
      });
    });
  }

  /**
   * Pins the history message at `index` (negative counts from the end): no strategy drops or shortens
   * it from now on. The pin is kept in the session's state, not in the message, which stays as it was
   * written. A message an earlier compaction already dropped comes back when the view is next rebuilt
   * from the history. Resolves to the history index pinned.
   */
  pinMessage(index: number): Promise<number> {
    return this.setPin(index, true);
  }

  /** Removes a pin made with `pinMessage` (a pin in the message's own metadata stays). Resolves to the history index. */
  unpinMessage(index: number): Promise<number> {
    return this.setPin(index, false);
  }

  /** The history indices pinned with `pinMessage`, ascending. */
  pinnedMessages(): Promise<number[]> {
    return this.read(undefined, async () => this.pins.list());
  }

  private setPin(index: number, isPinned: boolean): Promise<number> {
    return this.read(undefined, async () => {
      const resolved = Number.isInteger(index) && index < 0 ? this.history.length + index : index;
      if (!Number.isInteger(index) || resolved < 0 || resolved >= this.history.length) {
        const range = this.history.length === 0 ? "the history is empty" : `0 to ${this.history.length - 1}, or -1 for the latest`;
        throw new ContextValidationError([{ path: "index", message: `must be the index of a message in the history (${range}); received ${String(index)}` }]);
      }
      await this.pins.set(resolved, isPinned);
      this.view.remark((entry) => this.pins.mark(entry));
      return resolved;
    });
  }

  usage(): Promise<ContextUsage | undefined> {
    return this.whenUsable(() => this.queue.run(() => (this.lastUsage === undefined ? undefined : { ...this.lastUsage })));
  }

  /** Lets queued operations finish, makes every write durable and releases the store. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      // A barrier: operations queued before close(), and the state writes their strategies make, finish first.
      await this.queue.run(() => undefined);
      // Work between requests is given up, and waited for, so it writes no state into a closed store.
      this.backgroundAbort.abort();
      await this.background;
      await this.store.close();
    })();
    return this.closing;
  }

  private async open(): Promise<void> {
    try {
      await this.store.open();
      await this.apply(await this.store.load());
    } catch (error) {
      this.failure = { error };
      await this.store.close().catch(() => {});
      throw error;
    }
    this.ignoresSetMessages = this.history.length > 0;
  }

  /** Takes a store's whole content: at open, or after another writer replaced it. */
  private async apply(session: StoredSession): Promise<void> {
    // Stores hand back what they read; freezing here covers one that did not.
    this.reset(session.messages.map((message) => deepFreeze(message)));
    this.strategyState.load(session.state);
    this.pins.reload();
    const droppedBytes = session.droppedBytes ?? 0;
    if (droppedBytes > 0) await this.events.emit("context:recover", { file: this.store.location, droppedBytes });
  }

  /**
   * For a store that several processes write: asks it, at call time and so in call order with this
   * manager's own writes, what changed. Undefined for a store only this manager writes.
   */
  private issueSync(): Promise<StoreUpdate> | undefined {
    const { store } = this;
    if (store.sync === undefined) return undefined;
    const update = this.isOpen ? store.sync() : this.opened.then(() => store.sync!());
    update.catch(() => {});
    return update;
  }

  /** Brings in what other writers changed. */
  private async applyUpdate(update: StoreUpdate): Promise<void> {
    if (update.kind === "reset") {
      await this.apply(update.session);
    } else if (update.kind === "appended") {
      for (const message of update.messages) this.history.push(deepFreeze(message));
      if (update.state !== undefined) {
        this.strategyState.load(update.state);
        this.pins.reload();
        this.view.remark((entry) => this.pins.mark(entry));
      }
    }
  }

  private reset(messages: Message[]): void {
    this.history = messages;
    this.tokenCounts = [];
    this.view.reset();
    this.compactedFor = undefined;
    this.openUnitEdits = new Map();
    this.reportedRepairs = new Set();
    this.floorAboveThreshold = false;
    this.lastUsage = undefined;
    this.overflow.reset();
    this.breaker = new CircuitBreaker();
  }

  private async reportIgnoredSet(givenCount: number): Promise<void> {
    const payload = { file: this.store.location, storedCount: this.history.length, givenCount };
    console.info(
      `ctxkit: setMessages(${givenCount} messages) ignored: the session ${payload.file} was resumed with ${payload.storedCount} messages, its complete history.`,
    );
    await this.events.emit("context:set_messages_ignored", payload);
  }

  /** A request: queued behind every earlier operation, and rejected at once when its signal aborts. */
  private request<T>(options: RequestOptions, operation: () => Promise<T>): Promise<T> {
    return this.read(options.signal, operation);
  }

  /** A read: what other writers changed is asked for now, applied at the read's turn, then `operation` runs. */
  private read<T>(signal: AbortSignal | undefined, operation: () => Promise<T>): Promise<T> {
    return this.whenUsable(() => {
      const update = this.issueSync();
      const queued =
        update === undefined
          ? this.queue.run(operation)
          : this.queue.run(async () => {
              await this.applyUpdate(await update);
              return operation();
            });
      return abortable(queued, signal);
    });
  }

  /** Whether a request with `options` would compact now. Settles nothing: the next request decides again. */
  shouldCompact(options: RequestOptions = {}): Promise<boolean> {
    return this.request(options, async () => (await this.plan(options, { kind: "probe" })).reason !== undefined);
  }

  /** Brings the view's tail up to date and decides the request's budget and whether (and why) it compacts. */
  private async plan(options: RequestOptions, mode: CompactionMode) {
    const nominal = await resolveRequestBudget(options, this.config);
    const requestBudget =
      mode.kind === "overflow"
        ? this.overflow.shrink(nominal, this.lastUsage?.tokens)
        : mode.kind === "probe"
          ? this.overflow.peek(nominal)
          : this.overflow.apply(nominal);
    // The view fits what is left beside the tools, in the manager's own tokens as calibrated on the provider's.
    const overheadTokens = this.overhead.tokensOf(options);
    const budget = Math.max(0, this.calibration.apply(requestBudget) - overheadTokens);
    const openUnitStart = await this.refreshTail();
    const trigger = this.floorAboveThreshold ? budget : this.config.compactThreshold * budget;
    let reason: CompactionReason | undefined;
    if (mode.kind === "force") reason = "forced";
    else if (mode.kind === "overflow") reason = "overflow";
    else if (this.view.tokens > trigger) reason = "threshold";
    else if (this.idleStrategies.length > 0 && mode.kind === "auto" && this.dueIdleStrategies().length > 0) reason = "idle";
    // A view compacted for a much smaller budget grows back from the history: the one prefix change a larger budget costs.
    else if (this.compactedFor !== undefined && budget >= this.compactedFor * REGROW_RATIO) reason = "budget-change";
    return { requestBudget, overheadTokens, budget, openUnitStart, reason };
  }

  private async buildView(
    options: RequestOptions,
    mode: CompactionMode,
  ): Promise<{ view: Message[]; steps: PipelineStep[]; tokensBefore: number }> {
    // A caller that gave up before its turn in the queue gets its abort, not a view it no longer wants.
    options.signal?.throwIfAborted();
    const { requestBudget, overheadTokens, budget, openUnitStart, reason } = await this.plan(options, mode);
    const tokensBefore = this.view.tokens;
    let steps: PipelineStep[] = [];
    if (reason !== undefined) {
      try {
        steps = await this.compactView(budget, reason, options.signal ?? NEVER_ABORTED);
      } catch (error) {
        if (error instanceof ContextBudgetError) this.settle(openUnitStart, true);
        throw error;
      }
    }
    const compacted = reason !== undefined;
    this.settle(openUnitStart, compacted);
    if (this.idleStrategies.length > 0) this.lastRequestAt = Date.now();
    this.lastUsage = {
      tokens: this.view.tokens,
      budget: requestBudget,
      overheadTokens,
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
    const { entries, repairs } = this.entriesFor(tail, from);
    this.view.setTail(entries);
    if (repairs.length > 0) await this.announceRepairs(repairs);
    return from + this.openUnitStart(tail);
  }

  /** View entries for `messages`, the history from index `from` on, with broken pairs repaired, and the repairs not announced yet. */
  private entriesFor(messages: readonly Message[], from: number): { entries: ViewEntry[]; repairs: ToolPairRepair[] } {
    const repaired = repairToolPairs(messages);
    const entries: ViewEntry[] = repaired.messages.map((message, position) => {
      const source = repaired.sources[position];
      if (source === null || source === undefined) {
        return { message, tokens: countMessageTokens(message, this.counter), source: { kind: "synthetic", origin: "repair" } };
      }
      const index = from + source;
      const entry: ViewEntry = this.openUnitEdits.get(index) ?? { message, tokens: this.tokensOf(index), source: { kind: "history", index } };
      return this.pins.size === 0 ? entry : this.pins.mark(entry);
    });
    const repairs = repaired.repairs.filter((repair) => {
      const key = `${repair.kind}:${from + repair.index}`;
      if (this.reportedRepairs.has(key)) return false;
      this.reportedRepairs.add(key);
      return true;
    });
    return { entries, repairs };
  }

  /** Each repair is announced once, not on every request. */
  private async announceRepairs(repairs: readonly ToolPairRepair[]): Promise<void> {
    for (const repair of repairs) await this.events.emit("context:repair", { kind: repair.kind, toolCallIds: repair.toolCallIds });
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

  /**
   * The draft a compaction starts from: the current view, or the whole history again when the view
   * grows back for a larger budget. A forced or overflow compaction only ever shrinks the view.
   */
  private async compactionStart(reason: CompactionReason): Promise<ViewDraft> {
    if (reason !== "budget-change") return createViewDraft(this.view.entries);
    this.openUnitEdits = new Map();
    const { entries, repairs } = this.entriesFor(this.history, 0);
    await this.announceRepairs(repairs);
    return createViewDraft(entries);
  }

  private async compactView(budget: number, reason: CompactionReason, signal: AbortSignal): Promise<PipelineStep[]> {
    const started = performance.now();
    const before = await this.compactionStart(reason);
    await this.events.emit("context:pre_compact", { messageCount: before.entries.length, tokenCount: before.tokens, budget, reason });
    // A pass after a pause runs only the strategies it is due for, and lets them do all they do.
    const isIdle = reason === "idle";
    const target = isIdle ? 0 : Math.floor(this.config.targetRatio * budget);
    const strategies = isIdle ? this.dueIdleStrategies() : this.strategies;
    const { strategyTimeoutMs } = this.config;
    const result = await runPipeline(before, strategies, this.strategyContext(budget, target, signal), { breaker: this.breaker, strategyTimeoutMs });
    let view = result.view;
    const steps = result.steps;
    if (view.tokens > budget) {
      const fallback = await runPipeline(view, FALLBACK_STRATEGIES, this.strategyContext(budget, budget, signal), { strategyTimeoutMs });
      view = fallback.view;
      steps.push(...fallback.steps);
    }
    this.view.replace(view.entries);
    this.compactedFor = budget;
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
      reason,
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

  /** The strategies whose pause has passed since the last request; none before the first request. */
  private dueIdleStrategies(): Strategy[] {
    if (this.lastRequestAt === undefined) return [];
    const idleFor = Date.now() - this.lastRequestAt;
    return this.idleStrategies.filter((strategy) => idleFor >= strategy.idleAfterMs!);
  }

  /** Gives a strategy its own state store, whatever context the pipeline hands it. */
  private withOwnState(strategy: Strategy): Strategy {
    const apply: Strategy["apply"] = (view, context) => strategy.apply(view, { ...context, state: this.stateStoreFor(strategy.name) });
    const wrapped: { -readonly [Key in keyof Strategy]: Strategy[Key] } = { name: strategy.name, apply };
    if (strategy.idleAfterMs !== undefined) wrapped.idleAfterMs = strategy.idleAfterMs;
    if (strategy.observe !== undefined) wrapped.observe = (context) => strategy.observe!(context);
    return wrapped;
  }

  private stateStoreFor(name: string): StrategyStateStore {
    let store = this.stateStores.get(name);
    if (store === undefined) {
      store = this.strategyState.storeFor(name);
      this.stateStores.set(name, store);
    }
    return store;
  }

  /** Runs `operation` unless the manager is closed or broken; a synchronous throw becomes a rejection. */
  private whenUsable<T>(operation: () => Promise<T>): Promise<T> {
    if (this.failure !== undefined) {
      const cause = this.failure.error;
      // A store that could not be opened keeps its own error (a lock held elsewhere, say).
      return Promise.reject(this.isOpen ? new ContextClosedError(this.store.location, "write_failed", { cause }) : cause);
    }
    if (this.closing !== undefined) return Promise.reject(new ContextClosedError(this.store.location, "closed"));
    try {
      return operation();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Hands a write to the store in call order (after the open, for calls made while it runs). A failed
   * write leaves memory ahead of the store, so the manager stops: this write's caller, every pending
   * one and every later operation get `ContextClosedError` with the cause.
   */
  private write(issue: () => Promise<void>): Promise<void> {
    const written = this.isOpen ? issue() : this.opened.then(issue);
    const guarded = written.catch((error: unknown) => {
      if (!this.isOpen) throw error;
      this.failure ??= { error };
      throw new ContextClosedError(this.store.location, "write_failed", { cause: this.failure.error });
    });
    // A strategy may set state without awaiting it; the failure still reaches every later caller.
    guarded.catch(() => {});
    return guarded;
  }
}

/** The first history index up to `coveredThrough` that `view` no longer holds verbatim: where a summary's range begins. */
function firstReplaced(view: ViewDraft, coveredThrough: number): number {
  const verbatim = new Set<number>();
  for (const entry of view.entries) if (entry.source.kind === "history" && entry.source.index <= coveredThrough) verbatim.add(entry.source.index);
  let index = 0;
  while (index < coveredThrough && verbatim.has(index)) index += 1;
  return index;
}

const settleBoth = (first: Promise<void>, second: Promise<void>): Promise<void> => Promise.all([first, second]).then(() => undefined);

export interface CreateContextManagerOptions extends ContextEngineOptions {
  /** Where the session's messages and strategy state live. */
  store: MessageStore;
}

/**
 * Validates `config` (every bad key in one `ContextConfigError`), opens and loads `store`, and returns
 * the manager over it. On failure the store is closed again. Close the manager to release the store.
 */
export async function createContextManager(options: CreateContextManagerOptions & ContextConfig): Promise<ContextEngine> {
  const { store, moduleName, onEvent, ...config } = options;
  const engine = new ContextEngine(store, config, { ...(moduleName === undefined ? {} : { moduleName }), ...(onEvent === undefined ? {} : { onEvent }) });
  await engine.opened;
  return engine;
}
