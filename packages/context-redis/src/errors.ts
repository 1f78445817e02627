// The failures of a Redis session that a caller can act on. An unreachable server or a dropped connection
// is context-postgres's `ContextStoreUnavailableError`, the one class for every shared store.
import { ContextError } from "@ctxkit/core";

export { ContextStoreUnavailableError } from "@ctxkit/context-postgres";

/** context-redis's error codes, beside core's. */
export type RedisErrorCode = "CONTEXT_STORE_UNAVAILABLE" | "CONTEXT_STORE_CORRUPT";

/** A stored entry cannot be read back as what was written (a message `addMessage` would accept, a state value); nothing was changed. */
export class RedisStoreCorruptError extends ContextError {
  readonly location: string;
  /** Which entry: `message 2` (its sequence number, from 1) or `state summary/checkpoint`. */
  readonly entry: string;
  readonly reason: string;

  constructor(location: string, entry: string, reason: string, options?: { cause?: unknown }) {
    super(
      "CONTEXT_STORE_CORRUPT",
      `The session ${location} holds an unreadable ${entry}: ${reason}. Nothing was changed; repair or delete that entry.`,
      options,
    );
    this.location = location;
    this.entry = entry;
    this.reason = reason;
  }
}
