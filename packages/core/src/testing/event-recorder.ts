// Captures what a module emits through the coordinator's hooks, for assertions in tests.
import type { HookRegistry } from "../coordinator/hook-registry.js";
import { CONTEXT_EVENTS, type ContextEventMap, type ContextEventName } from "../events.js";

export interface RecordedEvent {
  event: string;
  data: unknown;
}

export interface EventRecorder {
  /** Everything recorded since creation or the last `clear()`, in emit order. */
  readonly events: readonly RecordedEvent[];
  /** The payloads of one event, in emit order. */
  of<E extends ContextEventName>(event: E): Array<ContextEventMap[E]>;
  of(event: string): unknown[];
  clear(): void;
  /** Stops recording; what was recorded stays readable. */
  dispose(): void;
}

/**
 * Registers on every event in `events` (the context events by default). The handlers use a very low
 * priority number so they record before other handlers can fail or unregister.
 */
export function createEventRecorder(
  coordinator: { readonly hooks: HookRegistry },
  events: readonly string[] = CONTEXT_EVENTS,
): EventRecorder {
  let recorded: RecordedEvent[] = [];
  const unregisters = [...new Set(events)].map((event) =>
    coordinator.hooks.register(
      event,
      (emitted: string, data: unknown) => {
        recorded.push({ event: emitted, data });
      },
      { priority: Number.MIN_SAFE_INTEGER, name: "ctxkit:event-recorder" },
    ),
  );

  function of(event: string): unknown[] {
    return recorded.filter((entry) => entry.event === event).map((entry) => entry.data);
  }

  return {
    get events() {
      return [...recorded];
    },
    of: of as EventRecorder["of"],
    clear() {
      recorded = [];
    },
    dispose() {
      for (const unregister of unregisters) unregister();
    },
  };
}
