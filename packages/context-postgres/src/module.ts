// The module surface: what a coordinator, a mount plan or the conformance kit loads.
import { randomUUID } from "node:crypto";
import { defineStoreModule } from "@ctxkit/core/kit";
import { configSchema, MODULE_NAME } from "./config-schema.js";
import { PostgresMessageStore } from "./postgres-message-store.js";

/**
 * `mount` validates the config, opens the shared session, mounts its manager at `context` and forwards its
 * events to the coordinator's hooks. The returned cleanup closes the manager; it is safe to call twice.
 */
export const postgresModule = defineStoreModule({
  name: "context-postgres",
  packageName: MODULE_NAME,
  configSchema,
  createStore: (config) =>
    new PostgresMessageStore({
      connectionString: config.connectionString,
      // Without a sessionId the session is new, under a random id (`manager.sessionId`).
      sessionId: config.sessionId ?? randomUUID(),
      table: config.table,
      schema: config.schema,
      maxConnections: config.maxConnections,
      connectTimeoutMs: config.connectTimeoutMs,
      statementTimeoutMs: config.statementTimeoutMs,
      closeTimeoutMs: config.closeTimeoutMs,
    }),
});

export const { meta, mount } = postgresModule;
export { configSchema };
