// What `--preset`, `--config` and `--compare` name, as replay systems: one fresh manager per file and budget.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  ContextConfigError,
  type ContextManager,
  createContextManager,
  createCoordinator,
  type EventHandler,
  MemoryMessageStore,
  ModuleLoadError,
  mountPlan,
  type Preset,
} from "@ctxkit/core";
import type { MessageStore } from "@ctxkit/core/kit";
import { createSummaryStrategy } from "@ctxkit/strategy-summary";
import { managerSystem } from "../../replay/manager-system.js";
import type { ReplaySystem } from "../../replay/replay-cost.js";
import { UsageError } from "../usage-error.js";

/** Core's presets, and `default`: createContextManager with no preset or strategies. */
export const PRESET_NAMES = ["default", "auto", "truncate", "summarize"] as const satisfies readonly ("default" | Preset)[];

export interface Configuration {
  /** As the table shows it: the preset's name, or the config file as given. */
  readonly label: string;
  readonly kind: "preset" | "config" | "mount plan";
  readonly system: ReplaySystem;
  /** Builds one manager of this configuration (over a memory store), for a command that reads more than views. */
  readonly create: (onEvent: EventHandler) => Promise<ContextManager>;
  /** The createContextManager config a preset or config file gives; absent for a mount plan, which names its own store. */
  readonly config?: ConfigObject;
}

export type ConfigObject = Record<string, unknown>;

/** A manager from a createContextManager config; `summarize` gets the extractive summarizer (no model calls). */
export async function managerFromConfig(
  config: ConfigObject,
  onEvent: EventHandler,
  store: MessageStore = new MemoryMessageStore(),
): Promise<ContextManager> {
  const needsSummary = config["preset"] === "summarize" && config["summaryStrategy"] === undefined;
  return createContextManager({
    store,
    ...config,
    ...(needsSummary ? { summaryStrategy: createSummaryStrategy() } : {}),
    onEvent,
  });
}

/** The summary module a plan's preset loads: the one this command ships with, wherever the plan is. */
function summaryModule(): string | undefined {
  try {
    return fileURLToPath(import.meta.resolve("@ctxkit/strategy-summary"));
  } catch {
    return undefined;
  }
}

async function managerFromPlan(plan: ConfigObject, onEvent: EventHandler, cwd: string): Promise<ContextManager> {
  const context = plan["context"] as { module?: unknown; config?: ConfigObject };
  const coordinator = createCoordinator();
  const module = summaryModule();
  const manager = await mountPlan(coordinator, { ...plan, context: { ...context, config: { ...context.config, onEvent } } } as never, {
    cwd,
    ...(module === undefined ? {} : { summaryModule: module }),
  });
  // The plan's cleanup (the store's close) runs when the replay closes the manager.
  return new Proxy(manager, {
    get(target, property, receiver) {
      if (property === "close") return () => coordinator.cleanup();
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function fromPreset(name: string): Configuration {
  const config = name === "default" ? {} : { preset: name };
  const create = (onEvent: EventHandler) => managerFromConfig(config, onEvent);
  return { label: name, kind: "preset", system: managerSystem(create), create, config };
}

async function fromFile(path: string, cwd: string, option: ConfigurationName["option"]): Promise<Configuration> {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new UsageError(option, `${path} cannot be read (${code}): give a mount plan or a createContextManager config as JSON`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      option,
      `${path} is not JSON (${(error as Error).message}): fix the file, or give a preset (${PRESET_NAMES.join(", ")})`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError(
      option,
      `${path} is not a JSON object: give a mount plan { "context": { "module", "config" } } or a config object`,
    );
  const config = value as ConfigObject;
  const isPlan = "context" in config;
  const create = isPlan
    ? (onEvent: EventHandler) => managerFromPlan(config, onEvent, cwd)
    : (onEvent: EventHandler) => managerFromConfig(config, onEvent);
  const configuration: Configuration = {
    label: path,
    kind: isPlan ? "mount plan" : "config",
    system: managerSystem(create),
    create,
    ...(isPlan ? {} : { config }),
  };
  await checkConfiguration(path, create, option);
  return configuration;
}

/** Builds one manager now, so a bad config is a usage error before any replay rather than a failure in each. */
async function checkConfiguration(
  path: string,
  create: (onEvent: EventHandler) => Promise<ContextManager>,
  option: ConfigurationName["option"],
): Promise<void> {
  let manager: ContextManager;
  try {
    manager = await create(() => undefined);
  } catch (error) {
    if (error instanceof ContextConfigError || error instanceof ModuleLoadError) throw new UsageError(option, `${path}: ${error.message}`);
    throw error;
  }
  await (manager as { close?: () => Promise<void> }).close?.();
}

const looksLikeFile = (entry: string): boolean => /[./\\]/.test(entry);

/** A configuration as the command line named it. */
export interface ConfigurationName {
  readonly name: string;
  /** The option it came from, for errors. */
  readonly option: "--preset" | "--config" | "--compare";
}

/** Each name as a configuration: a preset by its name, a `--config` or anything with a dot or a slash as a config file. */
export async function resolveConfigurations(names: readonly ConfigurationName[], cwd: string): Promise<Configuration[]> {
  const configurations: Configuration[] = [];
  for (const { name, option } of names) {
    if (option !== "--config" && (PRESET_NAMES as readonly string[]).includes(name)) configurations.push(fromPreset(name));
    else if (option === "--config" || looksLikeFile(name)) configurations.push(await fromFile(name, cwd, option));
    else
      throw new UsageError(
        option,
        `"${name}" is not a preset: give one of ${PRESET_NAMES.join(", ")}, or a config file's path (with a .json name)`,
      );
  }
  return configurations;
}
