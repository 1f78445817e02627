// The module surface: what a coordinator, a mount plan or the conformance kit loads.
import { mountContextManager, parseConfig, type Coordinator } from "@ctxkit/core";
import { configSchema, MODULE_NAME, type RedisContextConfig } from "./config-schema.js";
import { startRedisContext } from "./create-redis-context.js";

export const meta = { type: "context", name: "context-redis" } as const;

export { configSchema };

/**
 * Validates `config`, opens the shared session, mounts its manager at `context` and forwards its
 * events to the coordinator's hooks. The returned cleanup closes the manager; it is safe to call twice.
 */
export function mount(coordinator: Coordinator, config: RedisContextConfig): Promise<() => Promise<void>> {
  try {
    const manager = startRedisContext(parseConfig(MODULE_NAME, configSchema, config ?? {}));
    return mountContextManager(coordinator, meta.name, manager);
  } catch (error) {
    return Promise.reject(error);
  }
}
