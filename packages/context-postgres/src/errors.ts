// The failures of a PostgreSQL session that a caller can act on.
import { ContextError } from "@ctxkit/core";

/** context-postgres's error codes, beside core's. */
export type PostgresErrorCode = "CONTEXT_STORE_UNAVAILABLE" | "CONTEXT_STORE_CORRUPT";

/**
 * The server could not be reached, or the connection dropped during an operation. The operation's
 * transaction was rolled back: nothing of it was written.
 */
export class ContextStoreUnavailableError extends ContextError {
  readonly location: string;

  constructor(location: string, options?: { cause?: unknown }) {
    const cause = options?.cause instanceof Error ? options.cause.message : String(options?.cause);
    super(
      "CONTEXT_STORE_UNAVAILABLE",
      `The session ${location} could not be written or read (${cause}); nothing of that operation was stored. ` +
        `Check that the server is reachable, then open the session again.`,
      options,
    );
    this.location = location;
  }
}

/** A stored row cannot be read back as a message `addMessage` would accept; nothing was changed. */
export class PostgresStoreCorruptError extends ContextError {
  readonly location: string;
  readonly seq: number;
  readonly reason: string;

  constructor(location: string, seq: number, reason: string, options?: { cause?: unknown }) {
    super(
      "CONTEXT_STORE_CORRUPT",
      `The session ${location} holds an unreadable message at seq ${seq}: ${reason}. Nothing was changed; repair or delete that row.`,
      options,
    );
    this.location = location;
    this.seq = seq;
    this.reason = reason;
  }
}
