// context-simple's manager with a journal in front: every write goes to the store first, every read to memory.
import { configSchema as simpleConfigSchema, EventSink, SimpleContextManager, type EventHandler, type SimpleContextConfig } from "@ctxkit/context-simple";
import {
  deepFreeze,
  parseMessage,
  parseMessages,
  parseConfig,
  type CompactCapability,
  type CompactResult,
  type ContextManager,
  type ContextUsage,
  type Message,
  type OverflowRecoveryCapability,
  type RequestOptions,
  type UsageCapability,
} from "@ctxkit/core";
import { MODULE_NAME } from "./config-schema.js";
import { ContextClosedError } from "./errors.js";
import type { MessageStore, StoredSession } from "./message-store.js";

import { PersistentStrategyState } from "./persistent-strategy-state.js";

export interface PersistentOpenOptions {
  /** Receives every event from the start, including those emitted while opening (`context:recover`). */
  onEvent?: EventHandler;
}

const settleBoth = (first: Promise<void>, second: Promise<void>): Promise<void> => Promise.all([first, second]).then(() => undefined);

export class PersistentContextManager implements ContextManager, CompactCapability, OverflowRecoveryCapability, UsageCapability {
  private readonly store: MessageStore;
  private readonly inner: SimpleContextManager;
  private readonly events = new EventSink();
  private readonly strategyState: PersistentStrategyState;
  /** The history's length as of the last call, for the ignore event (the inner manager may still be busy). */
  private messageCount: number;
  private ignoresSetMessages: boolean;
  private failure: { readonly error: unknown } | undefined;
  private closing: Promise<void> | undefined;

  /**
   * Opens `store` (taking its lock), reads it once, and returns a manager over it. `config` takes
   * context-simple's keys; the store has its own options. On failure the store is closed again.
   */
  static async open(store: MessageStore, config: SimpleContextConfig = {}, options: PersistentOpenOptions = {}): Promise<PersistentContextManager> {
    const parsed = parseConfig(MODULE_NAME, simpleConfigSchema, config);
    await store.open();
    try {
      const stored = await store.load();
      const manager = new PersistentContextManager(store, parsed, stored, options.onEvent);
      await manager.start(stored);
      return manager;
    } catch (error) {
      await store.close().catch(() => {});
      throw error;
    }
  }

  private constructor(store: MessageStore, config: SimpleContextConfig, stored: StoredSession, onEvent: EventHandler | undefined) {
    this.store = store;
    const { onEvent: configured, ...simpleConfig } = config;
    if (configured !== undefined) this.events.add(configured);
    if (onEvent !== undefined) this.events.add(onEvent);
    this.strategyState = new PersistentStrategyState(stored.state, (change) => this.guard(this.store.writeState(change)));
    this.inner = new SimpleContextManager(simpleConfig, { stateStoreFor: (name) => this.strategyState.storeFor(name), isInputParsed: true });
    this.inner.addEventHandler((event, payload) => this.events.emit(event, payload));
    this.messageCount = stored.messages.length;
    this.ignoresSetMessages = stored.messages.length > 0;
  }

  get sessionId(): string {
    return this.store.sessionId;
  }

  /** The journal file (or, for another store, where the session lives). */
  get location(): string {
    return this.store.location;
  }

  /** Whether `setMessages` is ignored: the store held messages when it was opened, and `clear()` was not called since. */
  get isResumed(): boolean {
    return this.ignoresSetMessages;
  }

  /** Sends events to another handler too. Returns a remover. */
  addEventHandler(handler: EventHandler): () => void {
    return this.events.add(handler);
  }

  /** Resolves once the message is in memory and as durable as the store's mode promises. */
  addMessage(message: Message): Promise<void> {
    return this.whenUsable(() => {
      // In call order and before any await: validate, queue the record, then apply it in memory.
      const parsed = parseMessage(message);
      const durable = this.guard(this.store.append(parsed));
      this.messageCount += 1;
      return settleBoth(durable, this.inner.addMessage(parsed));
    });
  }

  getMessages(): Promise<Message[]> {
    return this.whenUsable(() => this.inner.getMessages());
  }

  getMessagesForRequest(options?: RequestOptions): Promise<Message[]> {
    return this.whenUsable(() => this.inner.getMessagesForRequest(options));
  }

  /**
   * Replaces the history, atomically on disk. Ignored when the store held messages at open: the journal
   * is then the complete history, and the caller's copy (a transcript without system messages, say) is not.
   */
  setMessages(messages: Message[]): Promise<void> {
    return this.whenUsable(() => {
      const parsed = parseMessages(messages);
      if (this.ignoresSetMessages) return this.reportIgnoredSet(parsed.length);
      const durable = this.guard(this.store.replace(parsed, this.strategyState.snapshot()));
      this.messageCount = parsed.length;
      return settleBoth(durable, this.inner.setMessages(parsed));
    });
  }

  /** Empties the history, atomically on disk. Afterwards `setMessages` is accepted again. */
  clear(): Promise<void> {
    return this.whenUsable(() => {
      const durable = this.guard(this.store.clear(this.strategyState.snapshot()));
      this.messageCount = 0;
      this.ignoresSetMessages = false;
      return settleBoth(durable, this.inner.clear());
    });
  }

  compact(options?: RequestOptions): Promise<CompactResult> {
    return this.whenUsable(() => this.inner.compact(options));
  }

  recoverOverflow(error: unknown, options?: RequestOptions): Promise<Message[]> {
    return this.whenUsable(() => this.inner.recoverOverflow(error, options));
  }

  usage(): Promise<ContextUsage | undefined> {
    return this.whenUsable(() => this.inner.usage());
  }

  /** Lets queued operations finish, makes every write durable, releases the lock. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      // A barrier: operations queued before close(), and the state writes their strategies make, finish first.
      await this.inner.usage().catch(() => undefined);
      await this.store.close();
    })();
    return this.closing;
  }

  private async start(stored: StoredSession): Promise<void> {
    // The inner manager stores what it is given as is, so a store that did not freeze its messages is covered here.
    await this.inner.setMessages(stored.messages.map((message) => deepFreeze(message)));
    const droppedBytes = stored.droppedBytes ?? 0;
    if (droppedBytes > 0) {
      await this.events.emit("context:recover", { file: this.store.location, droppedBytes });
    }
  }

  private async reportIgnoredSet(givenCount: number): Promise<void> {
    const payload = { file: this.store.location, storedCount: this.messageCount, givenCount };
    console.info(
      `ctxkit: setMessages(${givenCount} messages) ignored: the session ${payload.file} was resumed with ${payload.storedCount} messages, its complete history.`,
    );
    await this.events.emit("context:set_messages_ignored", payload);
  }

  /** Runs `operation` unless the session is closed or broken; a synchronous throw becomes a rejection. */
  private whenUsable<T>(operation: () => Promise<T>): Promise<T> {
    if (this.failure !== undefined) {
      return Promise.reject(new ContextClosedError(this.store.location, "write_failed", { cause: this.failure.error }));
    }
    if (this.closing !== undefined) return Promise.reject(new ContextClosedError(this.store.location, "closed"));
    try {
      return operation();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * A failed write leaves memory ahead of the store, so the session stops: this write's caller, every
   * pending one and every later operation get `ContextClosedError` with the cause.
   */
  private guard(write: Promise<void>): Promise<void> {
    const guarded = write.catch((error: unknown) => {
      this.failure ??= { error };
      throw new ContextClosedError(this.store.location, "write_failed", { cause: this.failure.error });
    });
    // A strategy may set state without awaiting it; the failure still reaches every later caller.
    guarded.catch(() => {});
    return guarded;
  }
}
