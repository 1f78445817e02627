// Where an instrumented manager's events come from: the manager itself, or the coordinator hooks it sends them to.
import { CONTEXT_EVENTS, type ContextManager } from "@ctxkit/core";
import type { ContextEventListener } from "@ctxkit/core/kit";
import type { HookRegistry } from "@ctxkit/core/kit";
import { guard, warn } from "./guard.js";

/** A coordinator's `hooks`, or anything else that registers handlers by event name. */
export type EventHooks = Pick<HookRegistry, "register">;

interface EventSource {
  addEventHandler(handler: ContextEventListener): () => void;
}

function isEventSource(manager: ContextManager): manager is ContextManager & EventSource {
  return typeof (manager as Partial<EventSource>).addEventHandler === "function";
}

/**
 * Sends the manager's events to `listener`: through `hooks` when given, else through the manager's own
 * `addEventHandler` (every manager built on core's engine has it). A manager with neither gets spans and
 * metrics without its events. Returns the unsubscriber, which never throws.
 *
 * A hook registry whose `register` returns something other than an unregister function is not refused:
 * telemetry never fails the agent. It is reported on OpenTelemetry's `diag` logger, and the handlers it
 * cannot remove are left registered (the caller's listener should ignore them once it has unsubscribed).
 */
export function subscribeToEvents(manager: ContextManager, hooks: EventHooks | undefined, listener: ContextEventListener): () => void {
  if (hooks !== undefined) {
    const removers: unknown[] = CONTEXT_EVENTS.map((event) =>
      hooks.register(event as string, (_event, data) => listener(event, data as never)),
    );
    const unremovable = removers.filter((remove) => typeof remove !== "function");
    if (unremovable.length > 0)
      warn(
        "unsubscribing from the hooks",
        new TypeError(
          `the hooks' register returned ${describeValue(unremovable[0])}, not an unregister function, for ${unremovable.length} of ${removers.length} events; those handlers stay registered after close()`,
        ),
      );
    return () => {
      for (const remove of removers) if (typeof remove === "function") guard("removing a hook handler", () => remove());
    };
  }
  if (isEventSource(manager)) return manager.addEventHandler(listener);
  return () => {};
}

function describeValue(value: unknown): string {
  return value === null ? "null" : typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}
