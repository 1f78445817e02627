// The module surface: what a coordinator, a mount plan or the conformance kit loads.
import { randomUUID } from "node:crypto";
import { defineStoreModule } from "@ctxkit/core/kit";
import { configSchema, MODULE_NAME } from "./config-schema.js";
import { JsonlFileStore } from "./jsonl-file-store.js";

/**
 * `mount` validates the config, takes the session's lock, reads its journal, mounts the manager at `context`
 * and sends its events (those of the open too, such as `context:recover`) to the coordinator's hooks. The
 * returned cleanup closes the session and releases its lock; it is safe to call twice.
 */
export const persistentModule = defineStoreModule({
  name: "context-persistent",
  packageName: MODULE_NAME,
  configSchema,
  // Without a sessionId the session is new, under a random id (`manager.sessionId`).
  createStore: ({ storagePath, sessionId, durability, lock }) =>
    new JsonlFileStore({ directory: storagePath, sessionId: sessionId ?? randomUUID(), durability, lock }),
});

export const { meta, mount } = persistentModule;
export { configSchema };
