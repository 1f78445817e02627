// Where an instrumented manager's events come from: the manager itself, or the coordinator hooks it sends them to.
import { CONTEXT_EVENTS, type ContextEventListener, type ContextManager, type HookRegistry } from "@ctxkit/core";

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
 * metrics without its events. Returns the unsubscriber.
 */
export function subscribeToEvents(manager: ContextManager, hooks: EventHooks | undefined, listener: ContextEventListener): () => void {
  if (hooks !== undefined) {
    const removers = CONTEXT_EVENTS.map((event) => hooks.register(event as string, (data) => listener(event, data as never)));
    return () => {
      for (const remove of removers) remove();
    };
  }
  if (isEventSource(manager)) return manager.addEventHandler(listener);
  return () => {};
}
