// Records a manager's events with their order, so the kit can tell which operation emitted what.
import { CONTEXT_EVENTS, type ContextManager, type Coordinator } from "@ctxkit/core";
import type { SubscribeToEvents } from "./subject.js";

export interface RecordedEvent {
  readonly event: string;
  readonly payload: unknown;
}

export interface EventRecording {
  /** Appended to as events arrive; the kit reads slices of it around each operation. */
  readonly events: RecordedEvent[];
  stop(): void;
}

export function recordCoordinatorEvents(coordinator: Coordinator): EventRecording {
  const events: RecordedEvent[] = [];
  // The lowest priority number runs first, before any handler of the module can fail or unregister.
  const unregisters = CONTEXT_EVENTS.map((event) =>
    coordinator.hooks.register(event, (_event: string, payload: unknown) => void events.push({ event, payload }), {
      priority: Number.MIN_SAFE_INTEGER,
      name: "ctxkit-conformance",
    }),
  );
  return { events, stop: () => unregisters.forEach((unregister) => unregister()) };
}

export function recordSubscribedEvents(manager: ContextManager, subscribe: SubscribeToEvents): EventRecording {
  const events: RecordedEvent[] = [];
  const unsubscribe = subscribe(manager, (event, payload) => void events.push({ event, payload }));
  return { events, stop: () => unsubscribe?.() };
}
