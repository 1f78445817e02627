// Structural checks: the module's shape before its behaviour.
import { createSessionSettings, resolveConfig } from "../subject/session-settings.js";
import { createCoordinator, type Coordinator } from "@ctxkit/core";
import { isContextManager } from "@ctxkit/core/kit";
import { describeError, preview } from "../checks/violation.js";
import { isContextModuleLike, type ContextManagerFactory, type ContextModuleLike } from "../subject/subject.js";
import type { CheckResult } from "./report.js";
import { asMountedConfig } from "../subject/with-strategy-modules.js";
import type { PendingCalls } from "./observe-subject.js";
import { ConformanceTimeoutError, withStepTimeout } from "./step-timeout.js";

const COMPACTION_EVENTS = ["context:pre_compact", "context:post_compact"] as const;
const MANAGER_METHODS = ["addMessage", "getMessagesForRequest", "getMessages", "setMessages", "clear"] as const;

export interface StructuralCheck {
  readonly name: string;
  readonly description: string;
  /** Resolves to a failure reason, or to undefined when the check passes. */
  run(): Promise<string | undefined>;
}

function missingMethods(value: unknown): string[] {
  const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  return MANAGER_METHODS.filter((method) => typeof record[method] !== "function");
}

async function mountFresh(
  module: ContextModuleLike,
  config: unknown,
  pending: PendingCalls | undefined,
): Promise<{ coordinator: Coordinator; cleanup: unknown }> {
  const coordinator = createCoordinator();
  const mounted = (module.mount as (coordinator: Coordinator, config: unknown) => unknown)(coordinator, config);
  const cleanup = await (pending === undefined ? mounted : pending.track("mount()", mounted));
  return { coordinator, cleanup };
}

/** Calls into the module, heard by `pending` while the call runs. */
function track(label: string, call: () => unknown, pending: PendingCalls | undefined): unknown {
  const result = call();
  return pending === undefined ? result : pending.track(label, result);
}

function moduleChecks(module: ContextModuleLike, config: unknown, pending?: PendingCalls): StructuralCheck[] {
  const exports = module as unknown as Record<string, unknown>;
  return [
    {
      name: "meta",
      description: 'The module exports meta with type "context" and a non-empty name.',
      run: async () => {
        const meta = exports["meta"] as Record<string, unknown> | undefined;
        if (typeof meta !== "object" || meta === null) return "meta is not exported";
        if (meta["type"] !== "context") return `meta.type is ${preview(meta["type"])}, not "context"`;
        if (typeof meta["name"] !== "string" || meta["name"].trim() === "")
          return `meta.name is ${preview(meta["name"])}, not a non-empty string`;
        return undefined;
      },
    },
    {
      name: "mount-function",
      description: "The module exports mount as a function.",
      run: async () => (typeof exports["mount"] === "function" ? undefined : `mount is ${typeof exports["mount"]}`),
    },
    {
      name: "config-schema",
      description: "The module exports its zod configSchema, which accepts the test config and rejects an unknown key.",
      run: async () => {
        const schema = exports["configSchema"] as { safeParse?: (value: unknown) => { success: boolean } } | undefined;
        if (typeof schema?.safeParse !== "function") return "configSchema is not exported as a zod schema (no safeParse)";
        const mounted = asMountedConfig(config);
        const base = typeof mounted === "object" && mounted !== null ? mounted : {};
        if (!schema.safeParse(base).success) return `configSchema rejects the config under test: ${preview(base)}`;
        if (schema.safeParse({ ...base, notAConfigKey: true }).success) return "configSchema accepts an unknown key (notAConfigKey)";
        return undefined;
      },
    },
    {
      name: "mount-registers-manager",
      description: "mount() on a fresh coordinator registers a ContextManager, with its five methods, at `context`.",
      run: async () => {
        const { coordinator, cleanup } = await mountFresh(module, config, pending);
        const manager = coordinator.get("context");
        if (typeof cleanup === "function") await track("cleanup()", cleanup as () => unknown, pending);
        await track("coordinator.cleanup()", () => coordinator.cleanup(), pending);
        if (manager === undefined) return "mount() registered nothing at `context`";
        const missing = missingMethods(manager);
        return missing.length === 0 ? undefined : `the manager at \`context\` lacks ${missing.join(", ")}`;
      },
    },
    {
      name: "events-contributor",
      description: "mount() announces the events the module emits on the observability.events channel, compaction events included.",
      run: async () => {
        const { coordinator, cleanup } = await mountFresh(module, config, pending);
        const contributions = await coordinator.collectContributions("observability.events");
        if (typeof cleanup === "function") await track("cleanup()", cleanup as () => unknown, pending);
        await track("coordinator.cleanup()", () => coordinator.cleanup(), pending);
        const announced = new Set(contributions.flatMap((contribution) => (Array.isArray(contribution) ? contribution.map(String) : [])));
        const missing = COMPACTION_EVENTS.filter((event) => !announced.has(event));
        return missing.length === 0
          ? undefined
          : `observability.events lacks ${missing.join(", ")} (announced: ${[...announced].join(", ") || "nothing"})`;
      },
    },
    {
      name: "cleanup",
      description: "The cleanup mount() returns (if any) unmounts the manager and can be called twice, as can the coordinator's.",
      run: async () => {
        const { coordinator, cleanup } = await mountFresh(module, config, pending);
        const manager = coordinator.get("context");
        if (cleanup !== undefined && typeof cleanup !== "function")
          return `mount() returned ${preview(cleanup)}, neither a cleanup function nor nothing`;
        try {
          if (typeof cleanup === "function") {
            await track("cleanup()", cleanup as () => unknown, pending);
            await track("cleanup()", cleanup as () => unknown, pending);
          }
          await track("coordinator.cleanup()", () => coordinator.cleanup(), pending);
          await track("coordinator.cleanup()", () => coordinator.cleanup(), pending);
        } catch (error) {
          return `cleaning up failed: ${describeError(error)}`;
        }
        if (typeof cleanup === "function" && manager !== undefined && coordinator.get("context") === manager) {
          return "after its cleanup ran, the manager is still mounted at `context`";
        }
        return undefined;
      },
    },
  ];
}

function factoryChecks(factory: ContextManagerFactory): StructuralCheck[] {
  return [
    {
      name: "factory",
      description: "The factory returns a ContextManager with its five methods.",
      run: async () => {
        const manager = await factory(createSessionSettings());
        if (isContextManager(manager)) return undefined;
        return `the factory returned ${preview(manager)}, which lacks ${missingMethods(manager).join(", ")}`;
      },
    },
  ];
}

/** The structural checks that apply: the module's shape and mounting, or a factory's return value. `pending` hears each mount. */
export function listStructuralChecks(
  subject: ContextModuleLike | ContextManagerFactory,
  config: unknown,
  pending?: PendingCalls,
): StructuralCheck[] {
  // A config computed per instance is checked as a fresh instance would get it.
  return isContextModuleLike(subject)
    ? moduleChecks(subject, resolveConfig(config, createSessionSettings()), pending)
    : factoryChecks(subject);
}

export interface StructuralCheckOptions {
  /** Longest the check may take; one that takes longer fails as `unfinished`. Default: no bound. */
  readonly timeoutMs?: number;
  /** The module's calls still waiting, named when the time runs out. */
  readonly pending?: PendingCalls;
}

export async function runStructuralCheck(check: StructuralCheck, options: StructuralCheckOptions = {}): Promise<CheckResult> {
  const started = performance.now();
  let reason: string | undefined;
  let unfinished: string | undefined;
  try {
    const { timeoutMs, pending } = options;
    reason = await (timeoutMs === undefined
      ? check.run()
      : withStepTimeout(check.run(), {
          step: `the ${check.name} check`,
          timeoutMs,
          ...(pending === undefined ? {} : { pending: pending.list }),
        }));
  } catch (error) {
    if (error instanceof ConformanceTimeoutError) unfinished = reason = error.message;
    else reason = `threw ${describeError(error)}`;
  }
  const base = { name: check.name, kind: "structural" as const, description: check.description, durationMs: performance.now() - started };
  if (reason === undefined) return { ...base, status: "pass" };
  return { ...base, status: "fail", reason, ...(unfinished === undefined ? {} : { unfinished }) };
}
