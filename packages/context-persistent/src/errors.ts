// The failures of a journal that a caller can act on: core's store errors, one class per code, re-exported here.
import type { ContextErrorCode } from "@ctxkit/core";

export { ContextClosedError, ContextLockedError, ContextStoreAccessError, ContextStoreCorruptError, type ClosedReason } from "@ctxkit/core";
export type { LockOwner } from "@ctxkit/core/kit";

/** @deprecated Every code is in core's `ContextErrorCode`; these are the ones a journal raises. */
export type PersistentErrorCode = Extract<ContextErrorCode, "CONTEXT_LOCKED" | "CONTEXT_STORE_CORRUPT" | "CONTEXT_STORE_ACCESS">;
