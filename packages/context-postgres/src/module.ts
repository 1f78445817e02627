// The module surface: what a coordinator, a mount plan or the conformance kit loads.
import type { Coordinator } from "@ctxkit/core";
import { mountContextManager, parseConfig } from "@ctxkit/core/kit";
import { configSchema, MODULE_NAME, type PostgresContextConfig } from "./config-schema.js";
import { startPostgresContext } from "./create-postgres-context.js";

export const meta = { type: "context", name: "context-postgres" } as const;

export { configSchema };

/**
 * Validates `config`, opens the shared session, mounts its manager at `context` and forwards its
 * events to the coordinator's hooks. The returned cleanup closes the manager; it is safe to call twice.
 */
export function mount(coordinator: Coordinator, config: PostgresContextConfig): Promise<() => Promise<void>> {
  try {
    const manager = startPostgresContext(parseConfig(MODULE_NAME, configSchema, config ?? {}));
    return mountContextManager(coordinator, meta.name, manager);
  } catch (error) {
    return Promise.reject(error);
  }
}
