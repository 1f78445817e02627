// Opens a session from a config: its journal in `storagePath`, under `sessionId`, with the durability asked for.
import { randomUUID } from "node:crypto";
import { ContextEngine, type EventHandler } from "@ctxkit/core";
import { parseConfig } from "@ctxkit/core/kit";
import { configSchema, MODULE_NAME, type PersistentContextConfig, type ResolvedPersistentContextConfig } from "./config-schema.js";
import { JsonlFileStore } from "./jsonl-file-store.js";

/** A manager over a journal: core's engine, with `close()`, `sessionId`, `location` and `isResumed`. */
export type PersistentContextManager = ContextEngine;

/**
 * Validates `config` (every bad key in one `ContextConfigError`), takes the session's lock, reads its
 * journal once and returns the manager. Without a `sessionId` the session is new, under a random id
 * (`manager.sessionId`); pass that id later to resume it. Close the manager to release the lock.
 * @deprecated A thin alias kept for existing code. Build managers one way:
 * `createContextManager({ store: new JsonlFileStore({ directory, sessionId }), ...config })` from `@ctxkit/core`.
 */
export async function createPersistentContext(config: PersistentContextConfig): Promise<PersistentContextManager> {
  const engine = startPersistentContext(parseConfig(MODULE_NAME, configSchema, config));
  await engine.opened;
  return engine;
}

/**
 * The manager over the configured journal, opening in the background: `mount` adds its event handler
 * before the open, so it hears `context:recover` too. Await `opened` before using it.
 */
export function startPersistentContext(config: ResolvedPersistentContextConfig, onEvent?: EventHandler): ContextEngine {
  const { storagePath, sessionId, durability, lock, ...engineConfig } = config;
  const store = new JsonlFileStore({ directory: storagePath, sessionId: sessionId ?? randomUUID(), durability, lock });
  return new ContextEngine(store, engineConfig, { moduleName: MODULE_NAME, ...(onEvent === undefined ? {} : { onEvent }) });
}
