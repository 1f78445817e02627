// The storage a persistent manager writes through: one session's messages and strategy state.
import type { Message } from "@ctxkit/core";

/**
 * When a write counts as done:
 * - `always`: each write gets its own write and fsync before it resolves;
 * - `batch`: writes waiting at the same time share one write and one fsync, then all resolve;
 * - `none`: a write resolves once the operating system has it (it survives the process, not the machine).
 */
export type Durability = "always" | "batch" | "none";

/** Each strategy's key-value state, by strategy name. Maps, so any string is an ordinary key. */
export type StateSnapshot = ReadonlyMap<string, ReadonlyMap<string, unknown>>;

/** One change to a strategy's state. */
export type StateChange =
  | { readonly strategy: string; readonly key: string; readonly value: unknown }
  | { readonly strategy: string; readonly key: string; readonly deleted: true };

/** What a store held when it was opened. */
export interface StoredSession {
  /** Deep-frozen, in the order they were added. */
  readonly messages: readonly Message[];
  readonly state: StateSnapshot;
  /** Bytes of a torn final record (a crash mid-write) that were cut off; 0 when the store ended cleanly. */
  readonly droppedBytes: number;
}

/**
 * A session's storage. `JsonlFileStore` is the embedded one; stores on shared engines implement the same
 * contract:
 * - `open` takes the session (its lock) and `load` reads it, once; the manager then serves reads from memory;
 * - writes land in call order: each write lands after every write called before it;
 * - a write resolves once it is as durable as the store promises;
 * - `replace` and `clear` swap the whole content atomically: a crash leaves the old content or the new;
 * - after a write fails, that write and every later one reject: the session must be opened again;
 * - `close` waits for every write, makes them durable and releases the session; it is safe to call twice.
 */
export interface MessageStore {
  readonly sessionId: string;
  /** Where the session lives, for errors and events (a file path, a URL). */
  readonly location: string;
  open(): Promise<void>;
  load(): Promise<StoredSession>;
  append(message: Message): Promise<void>;
  writeState(change: StateChange): Promise<void>;
  /** Replaces the history, keeping `state` as the strategies' state. */
  replace(messages: readonly Message[], state: StateSnapshot): Promise<void>;
  /** Empties the history, keeping `state` as the strategies' state. */
  clear(state: StateSnapshot): Promise<void>;
  close(): Promise<void>;
}
