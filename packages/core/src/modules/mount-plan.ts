// Mount plans: an operator's config object that picks the context module, its config and its strategies.
import { z } from "zod";
import type { Coordinator } from "../coordinator/coordinator.js";
import { ModuleLoadError } from "../errors.js";
import type { ContextManager } from "../protocol.js";
import { loadModule } from "./load-module.js";
import { parseConfig } from "./parse-config.js";

const moduleEntrySchema = z.strictObject({
  /** A package name, or a path resolved against the working directory. */
  module: z.string().min(1, "give a package name or a path"),
  config: z.record(z.string(), z.unknown()).optional(),
});

/** A built-in strategy name (the context module resolves it) or a strategy module to load. */
const strategyEntrySchema = z.union([z.string().min(1, "give a built-in strategy name"), moduleEntrySchema]);

export const mountPlanSchema = z.strictObject({
  context: z.strictObject({
    module: moduleEntrySchema.shape.module,
    // Loose: every key but `strategies` belongs to the context module, whose own schema checks it.
    config: z.looseObject({ strategies: z.array(strategyEntrySchema).optional() }).optional(),
  }),
});

/** A plan as written, e.g. parsed from JSON. */
export type MountPlanInput = z.input<typeof mountPlanSchema>;
export type MountPlan = z.output<typeof mountPlanSchema>;

export interface MountPlanOptions {
  /** Where relative module paths are resolved. Defaults to `process.cwd()`. */
  cwd?: string;
}


/**
 * Replaces every `{ module, config }` entry of a strategy list with the Strategy its module creates
 * for `coordinator`; built-in names and Strategy objects pass through. Modules load one after another
 * so that a failure names the first bad entry deterministically.
 */
export async function resolveStrategyModules(
  entries: readonly unknown[],
  coordinator: Coordinator,
  options: MountPlanOptions = {},
): Promise<unknown[]> {
  const cwd = options.cwd ?? process.cwd();
  const resolved: unknown[] = [];
  for (const entry of entries) {
    const parsed = moduleEntrySchema.safeParse(entry);
    if (!parsed.success) {
      resolved.push(entry);
      continue;
    }
    const module = await loadModule(parsed.data.module, { type: "strategy", cwd });
    resolved.push(await module.createStrategy(parsed.data.config ?? {}, coordinator));
  }
  return resolved;
}

/**
 * Validates `plan`, loads the context module and every `{ module, config }` strategy, and mounts the
 * context module with its config, in which those strategy entries are replaced by the created
 * `Strategy` objects (built-in names stay strings). The module's cleanup is registered with the
 * coordinator. Returns the mounted manager.
 *
 * Throws `ContextConfigError` listing every problem in the plan, and `ModuleLoadError` when a module
 * cannot be loaded or the context module mounts no manager.
 */
export async function mountPlan(coordinator: Coordinator, plan: MountPlanInput, options: MountPlanOptions = {}): Promise<ContextManager> {
  const { context } = parseConfig("mount plan", mountPlanSchema, plan);
  const cwd = options.cwd ?? process.cwd();
  const module = await loadModule(context.module, { type: "context", cwd });

  let config: Record<string, unknown> = context.config ?? {};
  if (context.config?.strategies !== undefined) {
    config = { ...context.config, strategies: await resolveStrategyModules(context.config.strategies, coordinator, { cwd }) };
  }

  const before = coordinator.get("context");
  const cleanup = await module.mount(coordinator, config);
  // A module may return nothing; anything else but a function has no meaning and is ignored.
  if (typeof cleanup === "function") coordinator.registerCleanup(cleanup);

  const manager = coordinator.get("context");
  if (manager === undefined || manager === before) {
    throw new ModuleLoadError(context.module, ["mount"], {
      reason: `mount() did not mount a context manager; it must call coordinator.mount("context", manager)`,
    });
  }
  return manager;
}
