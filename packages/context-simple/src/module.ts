// The module surface: what a coordinator, a mount plan or the conformance kit loads.
import type { ContextConfig, Coordinator } from "@ctxkit/core";
import { contextConfigSchema, mountContextManager } from "@ctxkit/core/engine";
import { SimpleContextManager } from "./simple-context.js";

export const meta = { type: "context", name: "context-simple" } as const;

// Typed as core's schema, so its declaration names it rather than spelling out the types it holds.
export const configSchema: typeof contextConfigSchema = contextConfigSchema;

/**
 * Validates `config`, mounts a manager at `context`, sends its events to the coordinator's hooks and
 * announces them on the `observability.events` channel. The returned cleanup is safe to call twice.
 */
export function mount(coordinator: Coordinator, config: ContextConfig = {}): Promise<() => Promise<void>> {
  try {
    return mountContextManager(coordinator, meta.name, new SimpleContextManager(config));
  } catch (error) {
    return Promise.reject(error);
  }
}
