// Opens a session from a config: its journal in `storagePath`, under `sessionId`, with the durability asked for.
import type { ContextEngine } from "@ctxkit/core/kit";
import type { PersistentContextConfig } from "./config-schema.js";
import { persistentModule } from "./module.js";

/** A manager over a journal: core's engine, with `close()`, `sessionId`, `location` and `isResumed`. */
export type PersistentContextManager = ContextEngine;

/**
 * Validates `config` (every bad key in one `ContextConfigError`), takes the session's lock, reads its
 * journal once and returns the manager. Without a `sessionId` the session is new, under a random id
 * (`manager.sessionId`); pass that id later to resume it. Close the manager to release the lock.
 * @deprecated A thin alias kept for existing code. Build managers one way:
 * `createContextManager({ store: new JsonlFileStore({ directory, sessionId }), ...config })` from `@ctxkit/core`.
 */
export function createPersistentContext(config: PersistentContextConfig): Promise<PersistentContextManager> {
  return persistentModule.createContext(config);
}
