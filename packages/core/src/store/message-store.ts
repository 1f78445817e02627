// The one plug-in point for storage: where a context manager keeps one session's messages and strategy state.
import type { Message } from "../messages/message.js";

/** Each strategy's key-value state, by strategy name. Maps, so any string is an ordinary key. */
export type StateSnapshot = ReadonlyMap<string, ReadonlyMap<string, unknown>>;

/** One change to a strategy's state. */
export type StateChange =
  | { readonly strategy: string; readonly key: string; readonly value: unknown }
  | { readonly strategy: string; readonly key: string; readonly deleted: true };

/** What a store held when it was opened (or, for a shared store, when another writer replaced it). */
export interface StoredSession {
  /** In the order they were added. */
  readonly messages: readonly Message[];
  readonly state: StateSnapshot;
  /** Bytes of a torn final record (a crash mid-write) that were cut off; 0 or absent when the store ended cleanly. */
  readonly droppedBytes?: number;
  /**
   * When the newest message was appended (epoch milliseconds, `Date.now()` of the worker that appended it).
   * Optional: a store that records times reports it, in the same write as the append, and still after a
   * restart; absent means unknown (a store that keeps no times, data written before it did, a history set
   * by `replace`). The manager measures a resumed session's pause from it, so the first request after a long
   * one knows the provider's cache has expired.
   */
  readonly lastAddedAt?: number;
}

/**
 * What other writers changed in a shared store since this store last loaded or synced:
 * - `unchanged`: nothing;
 * - `appended`: the messages appended since, in the store's order, this store's own appends among them,
 *   and the strategies' whole state when any of it changed;
 * - `reset`: another writer replaced or cleared the session; this is its whole content now (its
 *   `lastAddedAt` included, for a store that records times).
 */
export type StoreUpdate =
  | { readonly kind: "unchanged" }
  | {
      readonly kind: "appended";
      readonly messages: readonly Message[];
      readonly state?: StateSnapshot;
      /** When the newest of `messages` was appended, as `StoredSession.lastAddedAt`; absent when unknown. */
      readonly lastAddedAt?: number;
    }
  | { readonly kind: "reset"; readonly session: StoredSession };

/**
 * What the caller of a conditional `replace` read: the edit applies only over that history. A store
 * compares it with what it holds now, in the same atomic step as the replace.
 */
export interface ReplaceExpectation {
  /** How many messages the history held when the caller read it. */
  readonly length: number;
}

/**
 * A session's storage. The manager validates every message before a store sees it (JSON data, deep-frozen),
 * serves reads from memory, and calls a store's methods one operation at a time. A store promises:
 * - `open` takes the session (a lock or lease, where the store has one) and `load` reads it, once;
 * - writes land in call order: each write lands after every write called before it;
 * - a write resolves once it is as durable as the store promises, and rejects with a typed error otherwise;
 * - `replace` and `clear` swap the whole content atomically: a crash leaves the old content or the new;
 * - after a write fails, that write and every later one reject: the session must be opened again;
 * - `close` waits for every write, makes them durable and releases the session; it is safe to call twice.
 *
 * A store that several processes write at once (a shared database) implements `sync`. The manager then
 * takes every message from `sync`, its own appends included, so all writers see one order. Such a store
 * writes strategy state with compare-and-set: it tracks the version of each state key it last loaded,
 * synced or wrote, and a `writeState` whose key another writer changed since rejects with
 * `ContextStateConflictError`, writes nothing and leaves the store usable (not the failure above); its
 * next `sync` returns the state as the other writer left it, to which the caller applies its change again.
 *
 * A `replace` given an expectation is conditional: it applies only when the history is still the one the
 * caller read, `expected.length` messages with no append, replace or clear since (for a shared store: since
 * this store last loaded, synced or wrote it). Otherwise it rejects with `ContextHistoryConflictError`,
 * writes nothing and leaves the store usable (not the failure above). A shared store checks it in the
 * step that replaces (a transaction, a script), so no other writer's append can land in between.
 */
export interface MessageStore {
  readonly sessionId: string;
  /** Where the session lives, for errors and events (a file path, a table and session). */
  readonly location: string;
  open(): Promise<void>;
  load(): Promise<StoredSession>;
  append(message: Message): Promise<void>;
  writeState(change: StateChange): Promise<void>;
  /**
   * Replaces the history, keeping `state` as the strategies' state. With `expected`, only over the history
   * the caller read: otherwise `ContextHistoryConflictError`, and nothing changes.
   */
  replace(messages: readonly Message[], state: StateSnapshot, expected?: ReplaceExpectation): Promise<void>;
  /** Empties the history, keeping `state` as the strategies' state. */
  clear(state: StateSnapshot): Promise<void>;
  close(): Promise<void>;
  /** Shared stores only: what changed since the last `load` or `sync`. Called before every read. */
  sync?(): Promise<StoreUpdate>;
  /**
   * Called once when the manager's `close()` begins, before it waits for the calls made before it. A store
   * whose `close()` has a bound (a networked store's close timeout) starts it now: a read or write frozen
   * on the network then gives way within that bound, instead of holding the manager's close() until its
   * own statement or command timeout. Optional; `close()` follows.
   */
  beginClose?(): void;
}
