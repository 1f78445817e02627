// The module shell every store package shares: a name, a config schema and a store give meta, configSchema, mount and a factory.
import type * as z from "zod/mini";
import type { Coordinator } from "../coordinator/coordinator.js";
import { contextConfigSchema, type ContextConfig, type EventHandler } from "../engine/context-config.js";
import type { ContextEngine } from "../engine/context-engine.js";
import { createContextManager } from "../engine/create-context-manager.js";
import { mountContextManager } from "../engine/mount-context-manager.js";
import type { MessageStore } from "../store/message-store.js";
import { knownKeysAt } from "./known-keys.js";
import { parseConfig } from "./parse-config.js";

/** The engine's own keys: the shell hands them to the manager, the rest of the config is the store's. */
const ENGINE_KEYS: ReadonlySet<string> = new Set(knownKeysAt(contextConfigSchema, []));

export interface StoreModuleDefinition<Name extends string, Schema extends z.core.$ZodType> {
  /** The module's `meta.name`, e.g. `"context-redis"`: events and mount plans use it. */
  readonly name: Name;
  /** The name a `ContextConfigError` gives (default `@ctxkit/<name>`): the package a user installed. */
  readonly packageName?: string;
  /** The engine's keys (`contextConfigSchema.extend({ … })`) plus the store's; unknown keys are refused. */
  readonly configSchema: Schema;
  /** The store for one resolved config (defaults applied). It is opened by the manager, not here. */
  createStore(config: z.output<Schema>): MessageStore;
}

export interface StoreModule<Name extends string, Schema extends z.core.$ZodType> {
  readonly meta: { readonly type: "context"; readonly name: Name };
  readonly configSchema: Schema;
  /**
   * Validates `config`, opens the store, mounts its manager at `context`, sends its events (those of the open
   * too, such as `context:recover`) to the coordinator's hooks and announces them on `observability.events`.
   * The returned cleanup unmounts and closes the manager; it is safe to call twice.
   */
  mount(coordinator: Coordinator, config: z.input<Schema>): Promise<() => Promise<void>>;
  /** Validates `config` (every bad key in one `ContextConfigError`), opens the store and returns the manager. */
  createContext(config: z.input<Schema>): Promise<ContextEngine>;
}

/**
 * A store package's whole module surface from its store: `createContextManager` over `createStore(config)`,
 * with the engine's keys of the config going to the manager. Export its parts from the package entry:
 * `export const { meta, configSchema, mount } = defineStoreModule({ … })`.
 */
export function defineStoreModule<const Name extends string, Schema extends z.core.$ZodType>(
  definition: StoreModuleDefinition<Name, Schema>,
): StoreModule<Name, Schema> {
  const { name, configSchema, createStore } = definition;
  const moduleName = definition.packageName ?? `@ctxkit/${name}`;

  async function open(config: unknown, forward?: EventHandler): Promise<ContextEngine> {
    const resolved = parseConfig(moduleName, configSchema, config);
    const { onEvent: configured, ...engineConfig } = Object.fromEntries(
      Object.entries(resolved as Record<string, unknown>).filter(([key]) => ENGINE_KEYS.has(key)),
    ) as ContextConfig;
    const onEvent = bothHandlers(configured, forward);
    return createContextManager({
      ...engineConfig,
      store: createStore(resolved),
      moduleName,
      ...(onEvent === undefined ? {} : { onEvent }),
    });
  }

  return {
    meta: { type: "context", name },
    configSchema,
    async mount(coordinator, config) {
      // The open's own events (context:recover) go to the hooks from here; once open, mountContextManager's
      // handler takes over in the same turn, so no event is lost or sent twice.
      let isOpening = true;
      // Without a config the error names the keys every mount needs.
      const manager = await open(config ?? {}, (event, payload) => (isOpening ? coordinator.hooks.emit(event, payload) : undefined));
      isOpening = false;
      return mountContextManager(coordinator, name, manager);
    },
    createContext: (config) => open(config),
  };
}

/** The config's own handler and the mount's forwarder as one `onEvent`: each runs, whichever of them fails. */
function bothHandlers(first: EventHandler | undefined, second: EventHandler | undefined): EventHandler | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  return async (event, payload) => {
    const outcomes = await Promise.allSettled([first, second].map(async (handler) => handler(event, payload)));
    const failure = outcomes.find((outcome) => outcome.status === "rejected");
    if (failure !== undefined) throw failure.reason;
  };
}
