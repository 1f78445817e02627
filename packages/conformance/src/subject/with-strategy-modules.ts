// Lets a CLI config name strategy modules (`{ module, config }`), as a mount plan does.
import type { Coordinator } from "@ctxkit/core";
import { resolveStrategyModules, type CtxkitModule } from "@ctxkit/core/kit";

/**
 * The module, whose `mount` first replaces `{ module, config }` entries of `config.strategies` with
 * the strategies those modules create, fresh for each mount, so that JSON can select them.
 */
export function withStrategyModules<M extends CtxkitModule>(module: M, cwd: string): M {
  const mount = module.mount.bind(module) as (coordinator: Coordinator, config?: unknown) => ReturnType<M["mount"]>;
  return {
    ...module,
    mount: async (coordinator: Coordinator, config?: unknown) => {
      const strategies = (config as { strategies?: unknown } | undefined)?.strategies;
      if (!Array.isArray(strategies)) return mount(coordinator, config);
      return mount(coordinator, { ...(config as object), strategies: await resolveStrategyModules(strategies, coordinator, { cwd }) });
    },
  };
}

/**
 * The config as the module's own schema sees it after `withStrategyModules`: each `{ module }`
 * strategy entry stands replaced by a Strategy object, since that is what the module receives.
 */
export function asMountedConfig(config: unknown): unknown {
  const strategies = (config as { strategies?: unknown } | undefined)?.strategies;
  if (!Array.isArray(strategies)) return config;
  const standIn = (entry: unknown) =>
    typeof entry === "object" && entry !== null && "module" in entry
      ? { name: "stand-in", apply: (view: unknown) => ({ view, applied: false }) }
      : entry;
  return { ...(config as object), strategies: strategies.map(standIn) };
}
