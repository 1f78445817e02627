// Opens a shared session from a config: the server (a URL or a client), the session id, the keys.
import { randomUUID } from "node:crypto";
import { ContextEngine, parseConfig, type EventHandler } from "@ctxkit/core";
import { configSchema, MODULE_NAME, type RedisContextConfig, type ResolvedRedisContextConfig } from "./config-schema.js";
import { RedisMessageStore } from "./redis-message-store.js";

/** A manager over a Redis session: core's engine, with `close()`, `sessionId` and `location`. */
export type RedisContextManager = ContextEngine;

/**
 * Validates `config` (every bad key in one `ContextConfigError`), connects, reads the session and returns
 * the manager. Every worker that opens the same `sessionId` shares the session. Close the manager to
 * release its connection (a `client` you passed stays open: it is yours).
 */
export async function createRedisContext(config: RedisContextConfig): Promise<RedisContextManager> {
  const engine = startRedisContext(parseConfig(MODULE_NAME, configSchema, config));
  await engine.opened;
  return engine;
}

/** The manager, opening in the background: `mount` adds its event handler first. Await `opened`. */
export function startRedisContext(config: ResolvedRedisContextConfig, onEvent?: EventHandler): ContextEngine {
  const { url, client, sessionId, keyPrefix, connectTimeoutMs, commandTimeoutMs, ...engineConfig } = config;
  const store = new RedisMessageStore({
    ...(url === undefined ? {} : { url }),
    ...(client === undefined ? {} : { client }),
    sessionId: sessionId ?? randomUUID(),
    keyPrefix,
    connectTimeoutMs,
    commandTimeoutMs,
  });
  return new ContextEngine(store, engineConfig, { moduleName: MODULE_NAME, ...(onEvent === undefined ? {} : { onEvent }) });
}
