// The failures of a PostgreSQL session that a caller can act on: core's store errors, one class per code, and
// the one failure only this store has (a close that reached its bound).
import { ContextError, ContextStoreAccessError, ContextStoreCorruptError } from "@ctxkit/core";

export { ContextStoreUnavailableError } from "@ctxkit/core";

/** context-postgres's error codes, beside core's. */
export type PostgresErrorCode = "CONTEXT_STORE_UNAVAILABLE" | "CONTEXT_STORE_CORRUPT" | "CONTEXT_STORE_ACCESS" | "CONTEXT_CLOSE_TIMEOUT";

/** What the server refused: a role or its password, the database, or a privilege on the tables. */
export type PostgresAccessReason = "role" | "database" | "privilege";

/**
 * The server answered, and refused this connection's role, password, database or privileges. Retrying
 * will not help: fix `connectionString` (or create the role or database, or grant the privilege).
 * Core's `ContextStoreAccessError` (its `path` is the session's location), with the server and what it refused.
 */
export class PostgresStoreAccessError extends ContextStoreAccessError {
  readonly location: string;
  /** `host:port/database` of the server, never the password. */
  readonly server: string;
  /** What the server refused; the message says why and what to do. */
  override readonly reason: PostgresAccessReason;

  constructor(location: string, server: string, reason: PostgresAccessReason, detail: string, options?: { cause?: unknown }) {
    super(location, `PostgreSQL at ${server} refused it: ${detail}`, options);
    this.location = location;
    this.server = server;
    this.reason = reason;
  }
}

/** Which stored record is unreadable: a message by its sequence number, a strategy's state key, or a named row or table. */
export type CorruptRecord = { readonly seq: number } | { readonly strategy: string; readonly key: string } | { readonly entry: string };

/**
 * A stored row cannot be read back (a message `addMessage` would accept, a state value as JSON, a session
 * row whose counters its messages do not match); nothing was changed. Core's `ContextStoreCorruptError`,
 * with the state record's strategy and key.
 */
export class PostgresStoreCorruptError extends ContextStoreCorruptError {
  /** The state record's strategy and key; undefined for a message. */
  readonly strategy: string | undefined;
  readonly key: string | undefined;

  constructor(location: string, record: CorruptRecord, reason: string, options?: { cause?: unknown }) {
    super(location, "strategy" in record ? { entry: `state "${record.key}" of "${record.strategy}"` } : record, reason, options);
    this.strategy = "strategy" in record ? record.strategy : undefined;
    this.key = "strategy" in record ? record.key : undefined;
  }
}

/**
 * `close()` reached its bound (`closeTimeoutMs`) with writes still unconfirmed: it gave up on them,
 * cut the connections and ended the pool anyway. Each of those writes rejected on its own; one whose
 * commit was already on its way may have landed. Open the session again to see what is stored.
 */
export class PostgresCloseTimeoutError extends ContextError {
  readonly location: string;
  readonly timeoutMs: number;
  /** Writes called before `close()` that had not settled when it gave up on them. */
  readonly unconfirmedWrites: number;

  constructor(location: string, timeoutMs: number, unconfirmedWrites: number) {
    super(
      "CONTEXT_CLOSE_TIMEOUT",
      `Closing the session ${location} took over ${timeoutMs} ms: ${unconfirmedWrites} write(s) were not confirmed and were given up; ` +
        `the connections were cut. Open the session again to see what was stored, and check the network to the server.`,
    );
    this.location = location;
    this.timeoutMs = timeoutMs;
    this.unconfirmedWrites = unconfirmedWrites;
  }
}
