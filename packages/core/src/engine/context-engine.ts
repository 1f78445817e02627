// The view engine every context module shares: an immutable history kept in a store, and views that fit the budget without rewriting it.
//
// The call-order rule. Only this facade touches the operation queue and the store: every public call
// validates its input, hands its write to the store in call order, and queues its work. The parts it
// calls never reach either; they are synchronous or pure helpers, run at an operation's turn in the
// queue (the async ones only await event handlers, a provider's budget and strategies):
// - `SessionHistory` (session-history.ts): the history kept in step with the store;
// - `ViewBuilder` (view-builder.ts): a request's view, from these three:
//   - `RequestPlanner` (request-planner.ts): the budget (overflow shrink, calibration, overhead) and whether, and why, it compacts;
//   - `ViewTail` (view-tail.ts): the view, its settled prefix, and its tail kept in step with the history;
//   - `CompactionPass` (compaction-pass.ts): one compaction of the view;
// - `BackgroundWork` (background-work.ts): strategies' `observe`, off the request path;
// - `StrategyStates` (strategy-states.ts): each strategy's state, written through the facade.
import { ContextHistoryConflictError } from "../errors.js";
import type { Message } from "../messages/message.js";
import { deepFreeze } from "../messages/deep-freeze.js";
import { parseMessage, parseMessages } from "../messages/parse-message.js";
import { parseConfig } from "../modules/parse-config.js";
import type {
  CompactCapability,
  CompactOptions,
  CompactionReceipt,
  CompactionReceiptCapability,
  CompactionSummary,
  CompactResult,
  ExplainViewCapability,
  ViewExplanation,
  ConditionalReplaceCapability,
  ContextManager,
  ContextUsage,
  OverflowRecoveryCapability,
  ProviderUsage,
  ProviderUsageCapability,
  RequestOptions,
  ShouldCompactCapability,
  UsageCapability,
  UndoCompactionResult,
} from "../protocol.js";
import type { MessageStore, StoredSession, StoreUpdate } from "../store/message-store.js";
import { resolveTokenCounter } from "../tokens/resolve-token-counter.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { abortable } from "./abortable.js";
import { BackgroundWork } from "./background-work.js";
import { CompactionReceipts, RECEIPT_STATE } from "./compaction-receipts.js";
import { contextConfigSchema, type ContextConfig, type EventHandler, type ResolvedContextConfig } from "./context-config.js";
import type { ContextEngineOptions } from "./context-config.js";
import { EventSink } from "./event-sink.js";
import { OperationQueue } from "./operation-queue.js";
import { PIN_STATE, PinSet } from "./pin-set.js";
import { readInputTokens } from "./request-planner.js";
import { presetStrategies, resolveStrategies } from "./resolve-strategies.js";
import { reportIgnoredSet, SessionHistory } from "./session-history.js";
import { isSameHistory } from "./same-history.js";
import { retryStateWrite } from "./state-write-retry.js";
import { settleBoth, StoreGate } from "./store-gate.js";
import { PreviewStates, StrategyStates } from "./strategy-states.js";
import { SyncLine } from "./sync-line.js";
import { ViewBuilder } from "./view-builder.js";
import { CompactionUndo } from "./undo-compaction.js";

export type { ContextEngineOptions };

/**
 * A context manager over any `MessageStore`. Every write goes to the store first, in call order; every read is served from memory
 * (after a `sync` for a store that several processes write). Operations are serialized; a failed write stops it: `ContextClosedError`.
 */
export class ContextEngine
  implements
    ContextManager,
    CompactCapability,
    OverflowRecoveryCapability,
    UsageCapability,
    ProviderUsageCapability,
    ShouldCompactCapability,
    ConditionalReplaceCapability,
    CompactionReceiptCapability,
    ExplainViewCapability
{
  readonly config: ResolvedContextConfig;
  readonly counter: TokenCounter;
  /** Settles once the store is open and loaded; rejects with the reason it could not be (the manager is then closed). */
  readonly opened: Promise<void>;
  private readonly store: MessageStore;
  private readonly events: EventSink;
  private readonly queue = new OperationQueue();
  private readonly states: StrategyStates;
  private readonly pins: PinSet;
  private readonly history: SessionHistory;
  private readonly views: ViewBuilder;
  private readonly receipts: CompactionReceipts;
  private readonly undo: CompactionUndo;
  private readonly background: BackgroundWork;
  /** What a shared store reported for each read, applied in the order asked for. */
  private readonly syncs = new SyncLine((update) => this.applyUpdate(update));
  /** Set once close() hands the store back: a state write after it has nowhere to go. */
  private isReleased = false;
  private readonly gate: StoreGate;
  private closing: Promise<void> | undefined;
  private ignoresSetMessages = false;

  /** Opens `store` in the background; every operation waits for it. `createContextManager` awaits it for you. */
  constructor(store: MessageStore, config: ContextConfig = {}, options: ContextEngineOptions = {}) {
    this.config = parseConfig(options.moduleName ?? "@ctxkit/core", contextConfigSchema, config);
    this.store = store;
    this.gate = new StoreGate(store);
    this.counter = resolveTokenCounter(this.config.tokenizer);
    this.events = new EventSink(this.config.eventHandlerTimeoutMs);
    this.states = new StrategyStates(
      (change) => this.gate.write(() => this.store.writeState(change)),
      () => this.isReleased,
    );
    this.pins = new PinSet(this.states.storeFor(PIN_STATE));
    const strategies = resolveStrategies(presetStrategies(this.config)).map((strategy) => this.states.withOwnState(strategy));
    const stateStoreFor = (name: string) => this.states.storeFor(name);
    this.history = new SessionHistory(this.counter);
    const parts = { config: this.config, counter: this.counter, history: this.history, pins: this.pins, events: this.events };
    this.receipts = new CompactionReceipts(this.states.storeFor(RECEIPT_STATE), this.config.keepCompactionReceipts);
    this.undo = new CompactionUndo(this.states, this.receipts, this.config.keepCompactionReceipts);
    this.views = new ViewBuilder({ ...parts, strategies, stateStoreFor, receipts: this.receipts, undo: this.undo });
    const observers = strategies.filter((strategy) => strategy.observe !== undefined);
    this.background = new BackgroundWork(observers, this.counter, this.events, stateStoreFor, this.config.strategyTimeoutMs);
    if (this.config.onEvent) this.events.add(this.config.onEvent);
    if (options.onEvent) this.events.add(options.onEvent);
    this.opened = this.queue.run(() => this.open());
    this.gate.openWith(this.opened);
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
    return this.gate.whenUsable(() => {
      // In call order and before any await: validate, hand the record to the store, then apply it in memory.
      const parsed = parseMessage(message);
      const durable = this.gate.writeHistory(() => this.store.append(parsed));
      const applied = this.queue.run(() => {
        // A shared store hands every message back through sync, in the one order all writers see.
        if (this.store.sync === undefined) this.history.append(parsed);
      });
      return settleBoth(durable, applied);
    });
  }

  getMessages(): Promise<Message[]> {
    return this.read(undefined, async () => this.history.messages.slice());
  }

  /**
   * Replaces the history. Ignored when the store held messages at open: the store is then the complete
   * history, and the caller's copy (a transcript without system messages, say) is not.
   */
  setMessages(messages: Message[]): Promise<void> {
    return this.gate.whenUsable(() => {
      const parsed = parseMessages(messages);
      if (this.ignoresSetMessages)
        return this.queue.run(() =>
          reportIgnoredSet(this.events, { file: this.store.location, storedCount: this.history.length, givenCount: parsed.length }),
        );
      const durable = this.gate.writeHistory(() => this.store.replace(parsed, this.states.state.snapshot()));
      const applied = this.queue.run(() => this.reset(parsed));
      return settleBoth(durable, applied);
    });
  }

  /**
   * Replaces the history with `messages` only if it still is `expected` (see `ConditionalReplaceCapability`),
   * on a resumed session too: the edit is made over the stored history, not over a caller's copy of it.
   */
  replaceMessages(expected: readonly Message[], messages: Message[]): Promise<void> {
    return this.gate.whenUsable(() => {
      const parsed = parseMessages(messages);
      // A read, so it syncs first; then, as for a pin, the store takes in what later reads already asked for,
      // since it checks the expectation against what it last read, and nothing is awaited before the write.
      return this.read(undefined, async () => {
        while (!this.syncs.isCaughtUp) await this.syncs.catchUp();
        if (!isSameHistory(this.history.messages, expected)) throw new ContextHistoryConflictError(this.store.location, expected.length);
        await this.gate.writeHistory(() => this.store.replace(parsed, this.states.state.snapshot(), { length: expected.length }));
        this.reset(parsed);
      });
    });
  }

  /** Empties the history. Afterwards `setMessages` is accepted again. */
  clear(): Promise<void> {
    return this.gate.whenUsable(() => {
      this.ignoresSetMessages = false;
      const durable = this.gate.writeHistory(() => this.store.clear(this.states.state.snapshot()));
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
    return this.read(options.signal, async () => {
      const { view } = await this.views.build(options, { kind: "auto" });
      if (!this.background.isEmpty) this.background.start(this.history.messages);
      return view;
    });
  }

  /** Resolves once the strategies' work between requests (`observe`) that earlier requests started has finished. */
  flushBackground(): Promise<void> {
    return this.background.flush();
  }

  readonly compactsThrough = true;
  compact(options: CompactOptions = {}): Promise<CompactResult> {
    return this.read(options.signal, async () => {
      const result = await this.views.build(options, { kind: "force" });
      return {
        compacted: result.steps.some((step) => step.applied),
        tokensBefore: result.tokensBefore,
        tokensAfter: this.views.tail.view.tokens,
        steps: result.steps,
      };
    });
  }

  recoverOverflow(_error: unknown, options: RequestOptions = {}): Promise<Message[]> {
    return this.read(options.signal, async () => (await this.views.build(options, { kind: "overflow" })).view);
  }

  /**
   * The compactions this session kept a receipt of (every worker's, on a shared store), oldest first, without
   * their per-message fates. Receipts past `keepCompactionReceipts` keep only these figures.
   */
  listCompactions(): Promise<CompactionSummary[]> {
    return this.read(undefined, async () => this.receipts.list());
  }

  /** One compaction's whole receipt, what became of each history message included, or undefined for an unknown id. */
  getCompaction(id: string): Promise<CompactionReceipt | undefined> {
    return this.read(undefined, async () => this.receipts.get(id));
  }

  /** Undoes compaction `id` and every later one (`UndoCompactionCapability`); the next view is rebuilt without them. */
  undoCompaction(id: string): Promise<UndoCompactionResult> {
    return retryStateWrite(() => this.read(undefined, () => this.syncs.catchUp().then(() => this.undo.undo(id, this.views))));
  }

  /**
   * For the view a request with `options` would get now: each history message's form in it and why, the
   * synthetic entries, and the tokens by category. Changes nothing: the next request gets the same view
   * as without this call, no state is written and no event is emitted, even when a compaction is due.
   */
  explainView(options: RequestOptions = {}): Promise<ViewExplanation> {
    return this.read(options.signal, () => this.views.explain(options, new PreviewStates(this.states)));
  }

  /** Whether a request with `options` would compact now. Settles nothing: the next request decides again. */
  shouldCompact(options: RequestOptions = {}): Promise<boolean> {
    return this.read(options.signal, async () => (await this.views.plan(options, { kind: "probe" })).reason !== undefined);
  }

  /**
   * Takes the provider's count for the last view (plus its tools). A steady gap between it and the
   * manager's own count scales later budgets, announced with `context:calibrate`.
   */
  reportUsage(usage: ProviderUsage): Promise<void> {
    return this.gate.whenUsable(() => {
      const inputTokens = readInputTokens(usage);
      return this.queue.run(async () => {
        const calibration = this.views.planner.recordProviderCount(inputTokens);
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

  usage(): Promise<ContextUsage | undefined> {
    return this.gate.whenUsable(() => this.queue.run(() => this.views.planner.usage()));
  }

  /** Lets queued operations finish, makes every write durable and releases the store. Safe to call twice. */
  close(): Promise<void> {
    this.gate.markClosing();
    this.closing ??= (async () => {
      // The store's close bound starts now, so an operation frozen on its network cannot hold the barrier below past it.
      this.store.beginClose?.();
      // A barrier: operations queued before close(), and the state writes their strategies make, finish first.
      await this.queue.run(() => undefined);
      // Work between requests is given up, and waited for, so it writes no state into a closed store.
      await this.background.stop();
      this.isReleased = true;
      await this.store.close();
    })();
    return this.closing;
  }

  /**
   * Each attempt is a read, so it syncs first: after a lost compare-and-set (`ContextStateConflictError`),
   * the same pin is applied to the pins the other writer left (state-write-retry.ts). A shared store checks
   * the write against the latest state it read, so the attempt first takes in what reads called after it
   * already asked for (sync-line.ts); nothing is awaited between that and the write, so no read comes between.
   */
  private setPin(index: number, isPinned: boolean): Promise<number> {
    let target = index;
    return retryStateWrite(() =>
      this.read(undefined, async () => {
        // A retry pins this same message, even if other writers appended meanwhile.
        target = this.history.resolveIndex(target);
        while (!this.syncs.isCaughtUp) await this.syncs.catchUp();
        const resolved = this.history.resolveIndex(target);
        await this.pins.set(resolved, isPinned);
        this.views.tail.remarkPins();
        return resolved;
      }),
    );
  }

  private async open(): Promise<void> {
    try {
      await this.store.open();
      await this.apply(await this.store.load());
    } catch (error) {
      this.gate.latch.trip(error);
      await this.store.close().catch(() => {});
      throw error;
    }
    this.ignoresSetMessages = this.history.length > 0;
  }

  /** Takes a store's whole content: at open, or after another writer replaced it. */
  private async apply(session: StoredSession): Promise<void> {
    // Stores hand back what they read; freezing here covers one that did not.
    this.reset(session.messages.map((message) => deepFreeze(message)));
    this.states.state.load(session.state);
    this.pins.reload();
    this.undo.noticeUndos();
    this.views.planner.recordStoredActivity(session.lastAddedAt, this.gate.firstHistoryWriteAt);
    const droppedBytes = session.droppedBytes ?? 0;
    if (droppedBytes > 0) await this.events.emit("context:recover", { file: this.store.location, droppedBytes });
  }

  /** Brings in what other writers changed. */
  private async applyUpdate(update: StoreUpdate): Promise<void> {
    if (update.kind === "reset") {
      await this.apply(update.session);
    } else if (update.kind === "appended") {
      this.history.appendStored(update.messages);
      this.views.planner.recordStoredActivity(update.lastAddedAt, this.gate.firstHistoryWriteAt);
      if (update.state !== undefined) {
        this.states.state.load(update.state);
        this.pins.reload();
        this.views.tail.remarkPins();
        if (this.undo.noticeUndos()) this.views.reset();
      }
    }
  }

  /** Takes a new history: everything derived from the old one is forgotten. */
  private reset(messages: Message[]): void {
    this.history.reset(messages);
    this.views.reset();
  }

  /**
   * A read (a request among them): what other writers changed is asked for now, applied at the read's turn,
   * then `operation` runs; queued behind every earlier operation, and rejected at once when `signal` aborts.
   */
  private read<T>(signal: AbortSignal | undefined, operation: () => Promise<T>): Promise<T> {
    return this.gate.whenUsable(() => {
      const update = this.gate.issueSync();
      const applyUpdate = update === undefined ? undefined : this.syncs.add(update);
      const queued = this.queue.run(async () => {
        // Every read (a request, a compaction) waits for its event handlers within one budget.
        this.events.beginOperation();
        if (applyUpdate !== undefined) await applyUpdate();
        return operation();
      });
      return abortable(queued, signal);
    });
  }
}
