// @ctxkit/context-postgres: core's context engine over PostgreSQL, for many workers sharing a session.
export { createPostgresContext, type PostgresContextManager } from "./create-postgres-context.js";
export { configSchema, type PostgresContextConfig, type ResolvedPostgresContextConfig } from "./config-schema.js";
export { meta, mount } from "./module.js";
export { PostgresMessageStore, type PostgresMessageStoreOptions } from "./postgres-message-store.js";
export {
  ContextStoreUnavailableError,
  PostgresCloseTimeoutError,
  PostgresStoreAccessError,
  PostgresStoreCorruptError,
  type CorruptRecord,
  type PostgresAccessReason,
  type PostgresErrorCode,
} from "./errors.js";
