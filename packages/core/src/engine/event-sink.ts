// Delivers a manager's events: to the coordinator's hooks when mounted, and to `onEvent` when given.
import type { ContextEventMap, ContextEventName } from "../events.js";
import type { EventHandler } from "./context-config.js";

/** How long one operation (a request, say) waits for its handlers, all its events together, before it goes on without them. */
export const DEFAULT_EVENT_HANDLER_TIMEOUT_MS = 5_000;

export class EventSink {
  private readonly handlers = new Set<EventHandler>();
  /** Handlers whose last outcome timed out and has not settled since: they are called, not waited for. */
  private readonly stuck = new Set<EventHandler>();
  /** What is left of the current operation's wait for handlers. */
  private remainingMs: number;

  constructor(private readonly timeoutMs: number = DEFAULT_EVENT_HANDLER_TIMEOUT_MS) {
    this.remainingMs = timeoutMs;
  }

  /**
   * Starts an operation's wait budget. One request emits many events (a compaction, every repair), and
   * the bound holds for the request, not for each event.
   */
  beginOperation(): void {
    this.remainingMs = this.timeoutMs;
  }

  add(handler: EventHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /**
   * Awaits every handler in turn; a failing one is reported and never fails the operation that
   * emitted. The operation waits for its handlers `timeoutMs` in all; past that, and for a handler
   * still stuck on an earlier event, handlers are called but not waited for, so a stuck handler
   * cannot hold the manager's queue.
   */
  async emit<E extends ContextEventName>(event: E, payload: ContextEventMap[E]): Promise<void> {
    for (const handler of this.handlers) {
      try {
        const outcome = handler(event, payload);
        if (outcome === undefined || typeof (outcome as Promise<void>).then !== "function") continue;
        if (this.stuck.has(handler) || this.remainingMs <= 0) {
          Promise.resolve(outcome).catch((error: unknown) => console.warn(`ctxkit: a handler for ${event} failed`, error));
          continue;
        }
        await this.bounded(handler, outcome, event);
      } catch (error) {
        console.warn(`ctxkit: a handler for ${event} failed`, error);
      }
    }
  }

  private async bounded(handler: EventHandler, outcome: Promise<void>, event: ContextEventName): Promise<void> {
    const started = performance.now();
    const waitMs = this.remainingMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timed out">((resolve) => {
      timer = setTimeout(() => resolve("timed out"), waitMs);
    });
    try {
      if ((await Promise.race([outcome, timedOut])) === "timed out") {
        this.stuck.add(handler);
        const release = () => void this.stuck.delete(handler);
        outcome.then(release, release);
        console.warn(`ctxkit: a handler for ${event} did not settle within ${waitMs} ms; going on without it`);
      }
    } finally {
      clearTimeout(timer);
      this.remainingMs -= performance.now() - started;
    }
  }
}
