// The one way to build a manager over a store: validate the config, open and load the store, hand back the manager.
import type { MessageStore } from "../store/message-store.js";
import type { ContextConfig } from "./context-config.js";
import { ContextEngine, type ContextEngineOptions } from "./context-engine.js";

export interface CreateContextManagerOptions extends ContextEngineOptions {
  /** Where the session's messages and strategy state live. */
  store: MessageStore;
}

/**
 * Validates `config` (every bad key in one `ContextConfigError`), opens and loads `store`, and returns
 * the manager over it. On failure the store is closed again. Close the manager to release the store.
 */
export async function createContextManager(options: CreateContextManagerOptions & ContextConfig): Promise<ContextEngine> {
  const { store, moduleName, onEvent, ...config } = options;
  const engine = new ContextEngine(store, config, {
    ...(moduleName === undefined ? {} : { moduleName }),
    ...(onEvent === undefined ? {} : { onEvent }),
  });
  await engine.opened;
  return engine;
}
