// Opens a shared session from a config: the server, the session id, the tables.
import type { ContextEngine } from "@ctxkit/core/kit";
import type { PostgresContextConfig } from "./config-schema.js";
import { postgresModule } from "./module.js";

/** A manager over a PostgreSQL session: core's engine, with `close()`, `sessionId` and `location`. */
export type PostgresContextManager = ContextEngine;

/**
 * Validates `config` (every bad key in one `ContextConfigError`), connects, creates the tables when
 * missing, reads the session and returns the manager. Every worker that opens the same `sessionId`
 * shares the session. Close the manager to release its connections.
 * @deprecated A thin alias kept for existing code. Build managers one way:
 * `createContextManager({ store: new PostgresMessageStore({ connectionString, sessionId }), ...config })` from `@ctxkit/core`.
 */
export function createPostgresContext(config: PostgresContextConfig): Promise<PostgresContextManager> {
  return postgresModule.createContext(config);
}
