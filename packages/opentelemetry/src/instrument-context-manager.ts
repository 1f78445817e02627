// The front door: wraps any context manager so that its views, compactions, repairs and refusals reach OpenTelemetry.
import {
  type CompactCapability,
  type ContextManager,
  type ContextUsage,
  canReportUsage,
  type OverflowRecoveryCapability,
  type ProviderUsageCapability,
} from "@ctxkit/core";
import { type Attributes, metrics, trace, type Meter, type Tracer } from "@opentelemetry/api";
import { version } from "../package.json";
import * as names from "./attribute-names.js";
import { type EventHooks, subscribeToEvents } from "./event-source.js";
import { guard, guarded } from "./guard.js";
import { ManagerTelemetry, type StartedOperation } from "./manager-telemetry.js";
import type { OperationSpan } from "./operation-span.js";

export interface InstrumentationOptions {
  /** Default: `trace.getTracer("@ctxkit/opentelemetry", version)`, the global tracer provider's. */
  tracer?: Tracer;
  /** Default: `metrics.getMeter("@ctxkit/opentelemetry", version)`, the global meter provider's. */
  meter?: Meter;
  /** Added to every span and every metric point (an agent's name, say). Keep them low-cardinality. */
  attributes?: Attributes;
  /**
   * Where the manager's events come from when it does not take handlers itself: a coordinator's `hooks`.
   * Managers built on core's engine (`createContextManager`, every bundled module) need nothing here.
   */
  hooks?: EventHooks;
}

/** How long a finished request waits for the manager's `usage()` before its span is recorded without figures. */
const USAGE_WAIT_MS = 1_000;

type Capabilities = Partial<CompactCapability & OverflowRecoveryCapability & ProviderUsageCapability & { close(): Promise<void> }>;

/**
 * Returns the manager with its requests traced and measured: the same object as far as its callers can
 * tell (every method, getter and capability is the manager's own, and `instanceof` still holds), with
 * `getMessagesForRequest`, `compact`, `recoverOverflow` and `reportUsage` recorded. Telemetry never fails
 * a call: a tracer, meter or exporter that throws is reported on OpenTelemetry's `diag` logger and skipped.
 */
export function instrumentContextManager<Manager extends ContextManager>(manager: Manager, options: InstrumentationOptions = {}): Manager {
  const target = manager as Manager & Capabilities;
  const tracer = options.tracer ?? trace.getTracer(names.INSTRUMENTATION_NAME, version);
  const meter = options.meter ?? metrics.getMeter(names.INSTRUMENTATION_NAME, version);
  const telemetry = new ManagerTelemetry(tracer, meter, { ...options.attributes }, () => readSessionId(manager));
  // A handler the hooks could not remove (see subscribeToEvents) records nothing once the manager is closed.
  let isClosed = false;
  const unsubscribe = guarded(
    "subscribing to the manager's events",
    () =>
      subscribeToEvents(manager, options.hooks, (event, payload) => {
        if (!isClosed) telemetry.onEvent(event, payload);
      }),
    () => () => {},
  );

  const overrides: Record<string, (...args: never[]) => unknown> = {
    getMessagesForRequest: async (...args: Parameters<ContextManager["getMessagesForRequest"]>) => {
      const { value, span, usage } = await traced(telemetry, telemetry.start("view"), () => target.getMessagesForRequest(...args), target);
      telemetry.finishView(span, "view", value, usage);
      return value;
    },
    recoverOverflow: async (...args: Parameters<OverflowRecoveryCapability["recoverOverflow"]>) => {
      const { value, span, usage } = await traced(
        telemetry,
        telemetry.start("recover_overflow"),
        () => target.recoverOverflow!(...args),
        target,
      );
      telemetry.finishView(span, "recover_overflow", value, usage);
      return value;
    },
    compact: async (...args: Parameters<CompactCapability["compact"]>) => {
      const { value, span, usage } = await traced(telemetry, telemetry.start("compact"), () => target.compact!(...args), target);
      span.setCompactResult(value);
      span.setView(usage, undefined);
      span.end();
      return value;
    },
    reportUsage: async (...args: Parameters<ProviderUsageCapability["reportUsage"]>) => {
      const started = telemetry.start("report_usage");
      started.span.setAttributes(usageAttributes(args[0]));
      await traced(telemetry, started, () => target.reportUsage!(...args), undefined);
      started.span.end();
    },
    close: (...args: []) => {
      // Unsubscribing can fail with the hooks it was given; the manager closes whatever happens there.
      isClosed = true;
      guard("unsubscribing from the manager's events", unsubscribe);
      return target.close!(...args);
    },
  };

  const bound = new WeakMap<object, unknown>();
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      // Only what the manager has is wrapped: a capability it lacks stays absent, so `canCompact` and the like still tell.
      if (typeof value !== "function") return value;
      if (typeof property === "string" && Object.hasOwn(overrides, property)) return overrides[property];
      // Bound to the manager itself, so its private state and getters behave as if it were called directly.
      let method = bound.get(value);
      if (method === undefined) {
        method = (value as (...args: unknown[]) => unknown).bind(object);
        bound.set(value, method);
      }
      return method;
    },
  });
}

/**
 * Runs one manager call inside its span. With `usageOf`, asks for `usage()` right after the call, before
 * anything else can queue: a manager that serializes its operations then reports this call's figures.
 * On failure the span is ended as failed and the error rethrown unchanged.
 */
async function traced<T>(
  telemetry: ManagerTelemetry,
  { span, run }: StartedOperation,
  call: () => Promise<T>,
  usageOf: ContextManager | undefined,
): Promise<{ value: T; span: OperationSpan; usage: ContextUsage | undefined }> {
  let usage: Promise<ContextUsage | undefined> | undefined;
  let value: T;
  try {
    value = await run(() => {
      const pending = call();
      if (usageOf !== undefined) usage = usageRightAfter(usageOf);
      return pending;
    });
  } catch (error) {
    telemetry.fail(span, error);
    throw error;
  }
  return { value, span, usage: await settleWithin(usage, USAGE_WAIT_MS) };
}

function usageRightAfter(manager: ContextManager): Promise<ContextUsage | undefined> | undefined {
  return guarded(
    "asking for the view's figures",
    () => (canReportUsage(manager) ? manager.usage().catch(() => undefined) : undefined),
    () => undefined,
  );
}

/** `pending`'s value, or `undefined` when it takes longer than `timeoutMs`: a slow `usage()` never holds a request. */
async function settleWithin<T>(pending: Promise<T | undefined> | undefined, timeoutMs: number): Promise<T | undefined> {
  if (pending === undefined) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([pending, late]);
  } finally {
    clearTimeout(timer);
  }
}

function usageAttributes(usage: unknown): Attributes {
  const { inputTokens, outputTokens } = (typeof usage === "object" && usage !== null ? usage : {}) as {
    inputTokens?: unknown;
    outputTokens?: unknown;
  };
  const attributes: Attributes = {};
  if (typeof inputTokens === "number" && Number.isFinite(inputTokens)) attributes[names.GEN_AI_USAGE_INPUT_TOKENS] = inputTokens;
  if (typeof outputTokens === "number" && Number.isFinite(outputTokens)) attributes[names.GEN_AI_USAGE_OUTPUT_TOKENS] = outputTokens;
  return attributes;
}

function readSessionId(manager: ContextManager): string | undefined {
  const sessionId = (manager as { sessionId?: unknown }).sessionId;
  return typeof sessionId === "string" && sessionId !== "" ? sessionId : undefined;
}
