// What every context module's `mount` does with its manager: wait for the store, mount it, forward its events.
import type { Coordinator } from "../coordinator/coordinator.js";
import { CONTEXT_EVENTS } from "../events.js";
import type { ContextEngine } from "./context-engine.js";

/**
 * Sends `manager`'s events (those of its open too, such as `context:recover`) to the coordinator's
 * hooks, waits for its store to open, mounts it at `context` and announces its events on the
 * `observability.events` channel under `moduleName`. Call it right after creating the manager, before
 * anything awaits. The returned cleanup unmounts and closes the manager; it is safe to call twice.
 */
export async function mountContextManager(
  coordinator: Coordinator,
  moduleName: string,
  manager: ContextEngine,
): Promise<() => Promise<void>> {
  let isForwarding = true;
  const removeHandler = manager.addEventHandler((event, payload) => (isForwarding ? coordinator.hooks.emit(event, payload) : undefined));
  try {
    await manager.opened;
    await coordinator.mount("context", manager);
  } catch (error) {
    removeHandler();
    await manager.close().catch(() => {});
    throw error;
  }
  coordinator.registerContributor("observability.events", moduleName, () => [...CONTEXT_EVENTS]);
  let cleanup: Promise<void> | undefined;
  return () => {
    cleanup ??= (async () => {
      isForwarding = false;
      removeHandler();
      if (coordinator.get("context") === manager) await coordinator.unmount("context");
      await manager.close();
    })();
    return cleanup;
  };
}
