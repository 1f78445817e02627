// @ctxkit/context-persistent: core's context engine over a crash-safe, append-only JSONL journal.
export { createPersistentContext, type PersistentContextManager } from "./create-persistent-context.js";
export { configSchema, type PersistentContextConfig, type ResolvedPersistentContextConfig } from "./config-schema.js";
export { meta, mount } from "./module.js";
export type { MessageStore, StoredSession, StateSnapshot, StateChange, Durability } from "./message-store.js";
export { JsonlFileStore, type JsonlFileStoreOptions } from "./jsonl-file-store.js";
export {
  ContextLockedError,
  ContextStoreCorruptError,
  ContextStoreAccessError,
  ContextClosedError,
  type ClosedReason,
  type LockOwner,
  type PersistentErrorCode,
} from "./errors.js";
