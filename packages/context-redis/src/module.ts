// The module surface: what a coordinator, a mount plan or the conformance kit loads.
import { randomUUID } from "node:crypto";
import { defineStoreModule } from "@ctxkit/core/kit";
import { configSchema, MODULE_NAME } from "./config-schema.js";
import { RedisMessageStore } from "./redis-message-store.js";

/**
 * `mount` validates the config, opens the shared session, mounts its manager at `context` and forwards its
 * events to the coordinator's hooks. The returned cleanup closes the manager; it is safe to call twice.
 */
export const redisModule = defineStoreModule({
  name: "context-redis",
  packageName: MODULE_NAME,
  configSchema,
  createStore: ({ url, client, sessionId, keyPrefix, connectTimeoutMs, commandTimeoutMs }) =>
    new RedisMessageStore({
      ...(url === undefined ? {} : { url }),
      ...(client === undefined ? {} : { client }),
      // Without a sessionId the session is new, under a random id (`manager.sessionId`).
      sessionId: sessionId ?? randomUUID(),
      keyPrefix,
      connectTimeoutMs,
      commandTimeoutMs,
    }),
});

export const { meta, mount } = redisModule;
export { configSchema };
