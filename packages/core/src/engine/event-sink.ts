// Delivers a manager's events: to the coordinator's hooks when mounted, and to `onEvent` when given.
import type { ContextEventMap, ContextEventName } from "../events.js";
import type { EventHandler } from "./context-config.js";

/** How long the manager waits for one handler before it goes on without it. */
export const DEFAULT_EVENT_HANDLER_TIMEOUT_MS = 5_000;

export class EventSink {
  private readonly handlers = new Set<EventHandler>();

  constructor(private readonly timeoutMs: number = DEFAULT_EVENT_HANDLER_TIMEOUT_MS) {}

  add(handler: EventHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /**
   * Awaits every handler in turn; a failing one is reported and never fails the operation that
   * emitted, and one that has not settled after `timeoutMs` is reported and no longer waited for, so
   * a stuck handler cannot hold the manager's queue.
   */
  async emit<E extends ContextEventName>(event: E, payload: ContextEventMap[E]): Promise<void> {
    for (const handler of this.handlers) {
      try {
        const outcome = handler(event, payload);
        if (outcome !== undefined) await this.bounded(outcome, event);
      } catch (error) {
        console.warn(`ctxkit: a handler for ${event} failed`, error);
      }
    }
  }

  private async bounded(outcome: Promise<void>, event: ContextEventName): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timed out">((resolve) => {
      timer = setTimeout(() => resolve("timed out"), this.timeoutMs);
    });
    try {
      if ((await Promise.race([outcome, timedOut])) === "timed out") {
        outcome.catch(() => {});
        console.warn(`ctxkit: a handler for ${event} did not settle within ${this.timeoutMs} ms; going on without it`);
      }
    } finally {
      clearTimeout(timer);
    }
  }
}
