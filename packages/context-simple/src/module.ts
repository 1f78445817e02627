// The module surface: what a coordinator, a mount plan or the conformance kit loads.
import { CONTEXT_EVENTS, type Coordinator } from "@ctxkit/core";
import { configSchema, type SimpleContextConfig } from "./config-schema.js";
import { SimpleContextManager } from "./simple-context-manager.js";

export const meta = { type: "context", name: "context-simple" } as const;

export { configSchema };

/**
 * Validates `config`, mounts a manager at `context`, sends its events to the coordinator's hooks and
 * announces them on the `observability.events` channel. The returned cleanup is safe to call twice.
 */
export async function mount(coordinator: Coordinator, config: SimpleContextConfig = {}): Promise<() => void> {
  const manager = new SimpleContextManager(config);
  const removeHandler = manager.addEventHandler((event, payload) => coordinator.hooks.emit(event, payload));
  await coordinator.mount("context", manager);
  coordinator.registerContributor("observability.events", meta.name, () => [...CONTEXT_EVENTS]);
  let mounted = true;
  return () => {
    if (!mounted) return;
    mounted = false;
    removeHandler();
    if (coordinator.get("context") === manager) void coordinator.unmount("context");
  };
}
