// The module surface: what a coordinator, a mount plan or the conformance kit loads.
import type { Coordinator } from "@ctxkit/core";
import { mountContextManager, parseConfig } from "@ctxkit/core/kit";
import { configSchema, MODULE_NAME, type PersistentContextConfig } from "./config-schema.js";
import { startPersistentContext } from "./create-persistent-context.js";

export const meta = { type: "context", name: "context-persistent" } as const;

export { configSchema };

/**
 * Validates `config`, opens the session, mounts its manager at `context`, sends its events (those of
 * the open too, such as `context:recover`) to the coordinator's hooks and announces them on the
 * `observability.events` channel. The returned cleanup closes the session and releases its lock; it is
 * safe to call twice.
 */
export function mount(coordinator: Coordinator, config: PersistentContextConfig): Promise<() => Promise<void>> {
  try {
    // Without a config the error names the one key every mount needs: storagePath.
    const manager = startPersistentContext(parseConfig(MODULE_NAME, configSchema, config ?? {}));
    return mountContextManager(coordinator, meta.name, manager);
  } catch (error) {
    return Promise.reject(error);
  }
}
