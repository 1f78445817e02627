// The failures of a Redis session that a caller can act on: core's store errors, one class per code, re-exported here.
import { type ContextErrorCode, ContextStoreCorruptError } from "@ctxkit/core";

export { ContextStoreCorruptError, ContextStoreUnavailableError } from "@ctxkit/core";

/** @deprecated Every code is in core's `ContextErrorCode`; these are the ones this store raises. */
export type RedisErrorCode = Extract<ContextErrorCode, "CONTEXT_STORE_UNAVAILABLE" | "CONTEXT_STORE_CORRUPT">;

/** @deprecated The same class as `ContextStoreCorruptError` (one class per code); its `entry` names the entry. */
export const RedisStoreCorruptError = ContextStoreCorruptError;
/** @deprecated Use `ContextStoreCorruptError`. */
export type RedisStoreCorruptError = ContextStoreCorruptError;
