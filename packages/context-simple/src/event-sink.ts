// Delivers a manager's events: to the coordinator's hooks when mounted, and to `onEvent` when given.
import type { ContextEventMap, ContextEventName } from "@ctxkit/core";
import type { EventHandler } from "./config-schema.js";

export class EventSink {
  private readonly handlers = new Set<EventHandler>();

  add(handler: EventHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Awaits every handler; a failing one is reported and never fails the operation that emitted. */
  async emit<E extends ContextEventName>(event: E, payload: ContextEventMap[E]): Promise<void> {
    for (const handler of this.handlers) {
      try {
        await handler(event, payload);
      } catch (error) {
        console.warn(`ctxkit: a handler for ${event} failed`, error);
      }
    }
  }
}
