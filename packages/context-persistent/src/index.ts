// @ctxkit/context-persistent: context-simple's manager over a crash-safe, append-only journal.
export { createPersistentContext } from "./create-persistent-context.js";
export { PersistentContextManager, type PersistentOpenOptions } from "./persistent-context-manager.js";
export { configSchema, type PersistentContextConfig, type ResolvedPersistentContextConfig } from "./config-schema.js";
export { meta, mount } from "./module.js";
export type { MessageStore, StoredSession, StateSnapshot, StateChange, Durability } from "./message-store.js";
export { JsonlFileStore, type JsonlFileStoreOptions } from "./jsonl-file-store.js";
export { ContextLockedError, ContextStoreCorruptError, ContextClosedError, type ClosedReason, type LockOwner } from "./errors.js";
