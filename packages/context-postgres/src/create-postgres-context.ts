// Opens a shared session from a config: the server, the session id, the tables.
import { randomUUID } from "node:crypto";
import { ContextEngine, parseConfig, type EventHandler } from "@ctxkit/core";
import { configSchema, MODULE_NAME, type PostgresContextConfig, type ResolvedPostgresContextConfig } from "./config-schema.js";
import { PostgresMessageStore } from "./postgres-message-store.js";

/** A manager over a PostgreSQL session: core's engine, with `close()`, `sessionId` and `location`. */
export type PostgresContextManager = ContextEngine;

/**
 * Validates `config` (every bad key in one `ContextConfigError`), connects, creates the tables when
 * missing, reads the session and returns the manager. Every worker that opens the same `sessionId`
 * shares the session. Close the manager to release its connections.
 */
export async function createPostgresContext(config: PostgresContextConfig): Promise<PostgresContextManager> {
  const engine = startPostgresContext(parseConfig(MODULE_NAME, configSchema, config));
  await engine.opened;
  return engine;
}

/** The manager, opening in the background: `mount` adds its event handler first. Await `opened`. */
export function startPostgresContext(config: ResolvedPostgresContextConfig, onEvent?: EventHandler): ContextEngine {
  const {
    connectionString,
    sessionId,
    table,
    schema,
    maxConnections,
    connectTimeoutMs,
    statementTimeoutMs,
    closeTimeoutMs,
    ...engineConfig
  } = config;
  const store = new PostgresMessageStore({
    connectionString,
    sessionId: sessionId ?? randomUUID(),
    table,
    schema,
    maxConnections,
    connectTimeoutMs,
    statementTimeoutMs,
    closeTimeoutMs,
  });
  return new ContextEngine(store, engineConfig, { moduleName: MODULE_NAME, ...(onEvent === undefined ? {} : { onEvent }) });
}
