// The failures of a PostgreSQL session that a caller can act on: core's store errors, re-exported here.
import { type ContextErrorCode, ContextStoreCorruptError } from "@ctxkit/core";

export { ContextStoreCorruptError, ContextStoreUnavailableError } from "@ctxkit/core";

/** @deprecated Every code is in core's `ContextErrorCode`; these are the ones this store raises. */
export type PostgresErrorCode = Extract<ContextErrorCode, "CONTEXT_STORE_UNAVAILABLE" | "CONTEXT_STORE_CORRUPT">;

/** @deprecated The same class as `ContextStoreCorruptError` (one class per code); match on that, or on `code`. */
export const PostgresStoreCorruptError = ContextStoreCorruptError;
/** @deprecated Use `ContextStoreCorruptError`. */
export type PostgresStoreCorruptError = ContextStoreCorruptError;
