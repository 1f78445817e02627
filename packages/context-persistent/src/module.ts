// The module surface: what a coordinator, a mount plan or the conformance kit loads.
import { CONTEXT_EVENTS, parseConfig, type Coordinator } from "@ctxkit/core";
import { configSchema, MODULE_NAME, type PersistentContextConfig } from "./config-schema.js";
import { openPersistentContext } from "./create-persistent-context.js";

export const meta = { type: "context", name: "context-persistent" } as const;

export { configSchema };

/**
 * Validates `config`, opens the session, mounts its manager at `context`, sends its events (those of
 * the open too, such as `context:recover`) to the coordinator's hooks and announces them on the
 * `observability.events` channel. The returned cleanup closes the session and releases its lock; it is
 * safe to call twice.
 */
export async function mount(coordinator: Coordinator, config?: PersistentContextConfig): Promise<() => Promise<void>> {
  // Without a config the error names the one key every mount needs: storagePath.
  const parsed = parseConfig(MODULE_NAME, configSchema, config ?? {});
  let isForwarding = true;
  const manager = await openPersistentContext(parsed, {
    onEvent: (event, payload) => (isForwarding ? coordinator.hooks.emit(event, payload) : undefined),
  });
  try {
    await coordinator.mount("context", manager);
  } catch (error) {
    await manager.close();
    throw error;
  }
  coordinator.registerContributor("observability.events", meta.name, () => [...CONTEXT_EVENTS]);
  let cleanup: Promise<void> | undefined;
  return () => {
    cleanup ??= (async () => {
      isForwarding = false;
      if (coordinator.get("context") === manager) await coordinator.unmount("context");
      await manager.close();
    })();
    return cleanup;
  };
}
