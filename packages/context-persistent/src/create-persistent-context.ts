// Opens a session from a config: its journal in `storagePath`, under `sessionId`, with the durability asked for.
import { randomUUID } from "node:crypto";
import { parseConfig } from "@ctxkit/core";
import { configSchema, MODULE_NAME, type PersistentContextConfig, type ResolvedPersistentContextConfig } from "./config-schema.js";
import { JsonlFileStore } from "./jsonl-file-store.js";
import { PersistentContextManager, type PersistentOpenOptions } from "./persistent-context-manager.js";

/**
 * Validates `config` (every bad key in one `ContextConfigError`), takes the session's lock, reads its
 * journal once and returns the manager. Without a `sessionId` the session is new, under a random id
 * (`manager.sessionId`); pass that id later to resume it. Close the manager to release the lock.
 */
export function createPersistentContext(config: PersistentContextConfig): Promise<PersistentContextManager> {
  try {
    return openPersistentContext(parseConfig(MODULE_NAME, configSchema, config));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** For `mount`, which validates first and must hear the events emitted while opening. */
export function openPersistentContext(config: ResolvedPersistentContextConfig, options: PersistentOpenOptions = {}): Promise<PersistentContextManager> {
  const { storagePath, sessionId, durability, lock, ...simpleConfig } = config;
  const store = new JsonlFileStore({ directory: storagePath, sessionId: sessionId ?? randomUUID(), durability, lock });
  return PersistentContextManager.open(store, simpleConfig, options);
}
