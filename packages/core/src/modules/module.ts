// The module contract: what a package exports so that a coordinator can load and mount it.
import type * as z from "zod/mini";
import type { Coordinator } from "../coordinator/coordinator.js";
import type { Strategy } from "../pipeline/strategy.js";

export interface ModuleMeta {
  type: "context" | "strategy";
  /** Used in error messages and events, e.g. `"context-simple"`. */
  name: string;
}

/** What `mount` may return: nothing, or a cleanup the coordinator runs on `cleanup()`. */
export type MountResult = void | (() => void | Promise<void>);

/**
 * A context module mounts a `ContextManager` at the coordinator's `context` point.
 * `Config` is the config its `mount` accepts; it should still parse it with `parseConfig`, because a
 * mount plan hands over whatever the operator wrote.
 */
export interface ContextModule<Config = unknown> {
  readonly meta: ModuleMeta & { type: "context" };
  /** Rejects unknown keys and bad values; `parseConfig` turns its issues into one ContextConfigError. */
  readonly configSchema: z.core.$ZodType;
  mount(coordinator: Coordinator, config?: Config): MountResult | Promise<MountResult>;
}

/** A strategy module builds pipeline strategies for a context manager. */
export interface StrategyModule<Config = unknown> {
  readonly meta: ModuleMeta & { type: "strategy" };
  readonly configSchema: z.core.$ZodType;
  createStrategy(config: Config, coordinator: Coordinator): Strategy | Promise<Strategy>;
  /** For set-up that outlives one strategy, such as registering the events it emits. */
  mount(coordinator: Coordinator, config?: Config): MountResult | Promise<MountResult>;
}

export type CtxkitModule = ContextModule | StrategyModule;
