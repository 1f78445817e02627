// @ctxkit/context-redis: core's context engine over Redis or Valkey, for many workers sharing a session.
export { createRedisContext, type RedisContextManager } from "./create-redis-context.js";
export { configSchema, type RedisClient, type RedisContextConfig, type ResolvedRedisContextConfig } from "./config-schema.js";
export { meta, mount } from "./module.js";
export { RedisMessageStore, type RedisMessageStoreOptions } from "./redis-message-store.js";
export { ContextStoreUnavailableError, RedisStoreCorruptError, type RedisErrorCode } from "./errors.js";
