// The manager's one door to its store: writes in call order after the open, and a failed write that stops the manager.
import { ContextClosedError, ContextHistoryConflictError, ContextStateConflictError } from "../errors.js";
import { FailureLatch } from "../store/failure-latch.js";
import type { MessageStore, StoreUpdate } from "../store/message-store.js";

export class StoreGate {
  /** Set by a failed open or write: the manager then stops. */
  readonly latch = new FailureLatch();
  private isOpen = false;
  private isClosing = false;
  private opened: Promise<void> = Promise.resolve();

  constructor(private readonly store: MessageStore) {}

  /**
   * Calls made while `opened` runs wait for it. Call this right after starting the open, so that the flip
   * is the open's first reaction: calls made from then on go straight to the store, after those that waited.
   */
  openWith(opened: Promise<void>): void {
    this.opened = opened;
    opened.then(
      () => void (this.isOpen = true),
      () => {},
    );
  }

  /** From now on every operation is refused with `ContextClosedError`. */
  markClosing(): void {
    this.isClosing = true;
  }

  /** Issues `call` now when the store is open, or once it is. */
  afterOpen<T>(call: () => Promise<T>): Promise<T> {
    return this.isOpen ? call() : this.opened.then(call);
  }

  /** For a shared store: what changed, asked at call time, so in call order with the manager's own writes; undefined otherwise. */
  issueSync(): Promise<StoreUpdate> | undefined {
    const { store } = this;
    if (store.sync === undefined) return undefined;
    const update = this.afterOpen(() => store.sync!());
    update.catch(() => {});
    return update;
  }

  /** Runs `operation` unless the manager is closed or broken; a synchronous throw becomes a rejection. */
  whenUsable<T>(operation: () => Promise<T>): Promise<T> {
    const failure = this.latch.failure;
    if (failure !== undefined) {
      const cause = failure.error;
      // A store that could not be opened keeps its own error (a lock held elsewhere, say).
      return Promise.reject(this.isOpen ? new ContextClosedError(this.store.location, "write_failed", { cause }) : cause);
    }
    if (this.isClosing) return Promise.reject(new ContextClosedError(this.store.location, "closed"));
    try {
      return operation();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** When the manager first wrote the history (`Date.now()`): a time the store reports from then on may be its own write's. */
  firstHistoryWriteAt: number | undefined;

  /** `write` for messages or a whole history, the first one's call time kept in `firstHistoryWriteAt`. */
  writeHistory(issue: () => Promise<void>): Promise<void> {
    this.firstHistoryWriteAt ??= Date.now();
    return this.write(issue);
  }

  /**
   * Hands a write to the store in call order (after the open, for calls made while it runs). A failed
   * write leaves memory ahead of the store, so the manager stops: this write's caller, every pending
   * one and every later operation get `ContextClosedError` with the cause.
   */
  write(issue: () => Promise<void>): Promise<void> {
    const guarded = this.afterOpen(issue).catch((error: unknown) => {
      // A lost compare-and-set wrote nothing and leaves the store usable: the caller may apply it again.
      if (!this.isOpen || error instanceof ContextStateConflictError || error instanceof ContextHistoryConflictError) throw error;
      throw new ContextClosedError(this.store.location, "write_failed", { cause: this.latch.trip(error) });
    });
    // A strategy may set state without awaiting it; the failure still reaches every later caller.
    guarded.catch(() => {});
    return guarded;
  }
}

/** A write and its in-memory application, settled together. */
export const settleBoth = (first: Promise<void>, second: Promise<void>): Promise<void> =>
  Promise.all([first, second]).then(() => undefined);
