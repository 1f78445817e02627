// Hooks: event handlers that run one after another and never break the emitter.
import { ContextArgumentError } from "../errors.js";
import type { ContextEventMap, ContextEventName } from "../events.js";
import type { HandlerErrorReporter } from "./handler-error.js";

/**
 * Receives the event name, then its payload: the same order as a manager's `onEvent` handler, so one
 * function can serve both.
 */
export type HookHandler<Data = unknown> = (event: string, data: Data) => void | Promise<void>;

export interface HookOptions {
  /** Lower numbers run first; equal priorities run in registration order. Default 0. */
  priority?: number;
  /** Shown when the handler fails. Defaults to the function's name. */
  name?: string;
}

export interface HookRegistry {
  /** Returns a function that removes the handler; calling it again does nothing. */
  register<E extends ContextEventName>(event: E, handler: HookHandler<ContextEventMap[E]>, options?: HookOptions): () => void;
  register(event: string, handler: HookHandler, options?: HookOptions): () => void;
  /** Runs every handler for `event` in priority order. Resolves even when handlers fail. */
  emit<E extends ContextEventName>(event: E, data: ContextEventMap[E]): Promise<void>;
  emit(event: string, data?: unknown): Promise<void>;
}

interface Registration {
  readonly handler: HookHandler;
  readonly priority: number;
  readonly name: string | undefined;
  isActive: boolean;
}

export function createHookRegistry(reportError: HandlerErrorReporter): HookRegistry {
  const registrations = new Map<string, Registration[]>();

  function register(event: string, handler: HookHandler<never>, options: HookOptions = {}): () => void {
    if (typeof handler !== "function") {
      throw new ContextArgumentError(`hooks.register("${String(event)}")`, [
        { path: "handler", message: `needs a function, got ${typeof handler}; pass (payload) => …` },
      ]);
    }
    const priority: unknown = options?.priority ?? 0;
    if (typeof priority !== "number" || !Number.isFinite(priority)) {
      throw new ContextArgumentError(`hooks.register("${String(event)}")`, [
        { path: "options.priority", message: `must be a finite number, got ${String(priority)}` },
      ]);
    }
    const registration: Registration = {
      // Each handler is only ever called with its own event's payload, so widening it is safe.
      handler: handler as HookHandler,
      priority,
      name: options?.name ?? (handler.name || undefined),
      isActive: true,
    };
    const list = registrations.get(event) ?? [];
    // Insert after every handler of equal or lower priority: keeps the list sorted and ties stable.
    const index = list.findIndex((existing) => existing.priority > priority);
    list.splice(index === -1 ? list.length : index, 0, registration);
    registrations.set(event, list);

    return () => {
      if (!registration.isActive) return;
      registration.isActive = false;
      const current = registrations.get(event) ?? [];
      const remaining = current.filter((existing) => existing !== registration);
      if (remaining.length === 0) registrations.delete(event);
      else registrations.set(event, remaining);
    };
  }

  async function emit(event: string, data?: unknown): Promise<void> {
    // A snapshot: handlers registered while emitting wait for the next emit.
    const snapshot = [...(registrations.get(event) ?? [])];
    for (const registration of snapshot) {
      // A handler removed by an earlier handler of the same emit must not run.
      if (!registration.isActive) continue;
      try {
        await registration.handler(event, data);
      } catch (error) {
        reportError(error, { kind: "hook", event, name: registration.name });
      }
    }
  }

  return { register, emit };
}
