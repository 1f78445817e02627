// Mount plans: an operator's config object that picks the context module, its config and its strategies.
import * as z from "zod/mini";
import type { Coordinator } from "../coordinator/coordinator.js";
import { ModuleLoadError } from "../errors.js";
import { PRESETS } from "../engine/context-config.js";
import type { Strategy } from "../pipeline/strategy.js";
import type { ContextManager } from "../protocol.js";
import { loadModule } from "./load-module.js";
import { currentDirectory } from "./node-builtins.js";
import type { StrategyModule } from "./module.js";
import { parseConfig } from "./parse-config.js";

const moduleEntrySchema = z.strictObject({
  /** A package name, or a path resolved against the working directory. */
  module: z.string().check(z.minLength(1, "give a package name or a path")),
  config: z.optional(z.record(z.string(), z.unknown())),
});

/** A built-in strategy by name, with or without options (the context module checks both), or a strategy module to load. */
const namedEntrySchema = z.strictObject({
  name: z.string().check(z.minLength(1, "give a built-in strategy name")),
  options: z.optional(z.record(z.string(), z.unknown())),
});

// An object entry is checked against one shape, picked by its keys, so its problems are reported
// against that shape rather than as "matches none of the allowed shapes".
const objectEntrySchema = z.looseObject({}).check(
  z.superRefine((value, context) => {
    const schema = "name" in value && !("module" in value) ? namedEntrySchema : moduleEntrySchema;
    const result = schema.safeParse(value);
    if (!result.success) for (const issue of result.error.issues) context.addIssue({ ...issue } as never);
  }),
);

const strategyEntrySchema = z.union([z.string().check(z.minLength(1, "give a built-in strategy name")), objectEntrySchema]);

export const mountPlanSchema = z.strictObject({
  context: z.strictObject({
    module: moduleEntrySchema.shape.module,
    // Loose: every key but `strategies` belongs to the context module, whose own schema checks it.
    config: z.optional(z.looseObject({ strategies: z.optional(z.array(strategyEntrySchema)), preset: z.optional(z.enum(PRESETS)) })),
  }),
});

/** A plan as written, e.g. parsed from JSON. */
export type MountPlanInput = z.input<typeof mountPlanSchema>;
export type MountPlan = z.output<typeof mountPlanSchema>;

export interface MountPlanOptions {
  /** Where relative module paths are resolved. Defaults to `process.cwd()`. */
  cwd?: string;
  /** The strategy module the `summarize` and `auto` presets load. Defaults to `@ctxkit/strategy-summary`. */
  summaryModule?: string;
}

const SUMMARY_MODULE = "@ctxkit/strategy-summary";

/** The first mounted provider that can write a summary (has `complete`), by name. */
function findCompletionProvider(coordinator: Coordinator): string | undefined {
  for (const [name, provider] of coordinator.get("providers")) {
    if (typeof (provider as { complete?: unknown }).complete === "function") return name;
  }
  return undefined;
}

/**
 * The summary strategy a preset asks for, or undefined. `summarize` always gets one: with the first
 * mounted provider that can complete, else the extractive summarizer (no LLM). `auto` gets one only
 * when such a provider is mounted and the summary module can be loaded; otherwise it truncates.
 */
async function resolvePresetSummary(
  config: Record<string, unknown>,
  coordinator: Coordinator,
  cwd: string,
  specifier: string,
): Promise<Strategy | undefined> {
  const { preset } = config;
  if ((preset !== "summarize" && preset !== "auto") || config["strategies"] !== undefined || config["summaryStrategy"] !== undefined)
    return undefined;
  const provider = findCompletionProvider(coordinator);
  if (preset === "auto" && provider === undefined) return undefined;
  let module: StrategyModule;
  try {
    module = await loadModule(specifier, { type: "strategy", cwd });
  } catch (error) {
    if (preset === "summarize") throw error;
    return undefined;
  }
  return module.createStrategy(provider === undefined ? {} : { provider }, coordinator);
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
  const cwd = options.cwd ?? currentDirectory();
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
  const cwd = options.cwd ?? currentDirectory();
  const module = await loadModule(context.module, { type: "context", cwd });

  let config: Record<string, unknown> = context.config ?? {};
  if (context.config?.strategies !== undefined) {
    config = { ...context.config, strategies: await resolveStrategyModules(context.config.strategies, coordinator, { cwd }) };
  }
  const summaryStrategy = await resolvePresetSummary(config, coordinator, cwd, options.summaryModule ?? SUMMARY_MODULE);
  if (summaryStrategy !== undefined) config = { ...config, summaryStrategy };

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
