// What the kit tests: a factory of managers, or a context module that mounts one on a coordinator.
import { createCoordinator, isContextManager, type ContextManager, type Coordinator } from "@ctxkit/core";
import { recordCoordinatorEvents, recordSubscribedEvents, type RecordedEvent } from "./record-events.js";

/** Returns a fresh manager on every call: each property run starts from an empty instance. */
export type ContextManagerFactory = () => ContextManager | Promise<ContextManager>;

/** The module shape `loadModule` returns; only `mount` is needed to create managers. */
export interface ContextModuleLike {
  readonly meta?: unknown;
  readonly configSchema?: unknown;
  mount(coordinator: Coordinator, config: never): unknown;
}

export type ConformanceSubject = ContextManagerFactory | ContextModuleLike;

export type ContextEventListenerLike = (event: string, payload: unknown) => void;

/**
 * How the kit hears a plain factory's events, e.g. `(manager, listener) => manager.onEvent(listener)`.
 * Returns an unsubscribe function, or nothing.
 */
export type SubscribeToEvents = (manager: ContextManager, listener: ContextEventListenerLike) => (() => void) | void;

export interface ManagerInstance {
  readonly manager: ContextManager;
  /** Everything the manager emitted so far, in order; `undefined` when its events cannot be observed. */
  readonly events: RecordedEvent[] | undefined;
  dispose(): Promise<void>;
}

export interface ResolvedSubject {
  readonly kind: "module" | "factory";
  /** Creates a fresh manager, mounted on a fresh coordinator for a module. */
  create(): Promise<ManagerInstance>;
}

/** Raised when the subject cannot produce a manager at all; the structural checks say why. */
export class SubjectError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SubjectError";
  }
}

/** A module namespace or object with a `mount` function; a factory is a plain function. */
export function isContextModuleLike(subject: unknown): subject is ContextModuleLike {
  return typeof subject === "object" && subject !== null && typeof (subject as { mount?: unknown }).mount === "function";
}

/** `export default { meta, mount, … }` is accepted too, as `loadModule` accepts it. */
export function unwrapDefaultExport(subject: unknown): unknown {
  if (typeof subject !== "object" || subject === null || "mount" in subject) return subject;
  const fallback = (subject as { default?: unknown }).default;
  return typeof fallback === "object" && fallback !== null ? fallback : subject;
}

export interface SubjectOptions {
  /** The config a module is mounted with. Default `{}`. */
  readonly config?: unknown;
  /** How to hear a plain factory's events; modules use the coordinator's hooks instead. */
  readonly subscribe?: SubscribeToEvents | undefined;
}

async function mountModule(module: ContextModuleLike, config: unknown): Promise<ManagerInstance> {
  const coordinator = createCoordinator();
  const recorder = recordCoordinatorEvents(coordinator);
  const cleanup = await (module.mount as (coordinator: Coordinator, config: unknown) => unknown)(coordinator, config);
  const manager = coordinator.get("context");
  const dispose = async () => {
    recorder.stop();
    if (typeof cleanup === "function") await (cleanup as () => unknown)();
    await coordinator.cleanup();
  };
  if (!isContextManager(manager)) {
    await dispose();
    throw new SubjectError("mount() registered no context manager at `context`");
  }
  return { manager, events: recorder.events, dispose };
}

async function callFactory(factory: ContextManagerFactory, subscribe: SubscribeToEvents | undefined): Promise<ManagerInstance> {
  const manager = await factory();
  if (!isContextManager(manager)) {
    throw new SubjectError("the factory did not return a ContextManager (addMessage, getMessagesForRequest, getMessages, setMessages, clear)");
  }
  if (subscribe === undefined) return { manager, events: undefined, dispose: async () => {} };
  const recorder = recordSubscribedEvents(manager, subscribe);
  return { manager, events: recorder.events, dispose: async () => recorder.stop() };
}

export function resolveSubject(input: ConformanceSubject, options: SubjectOptions = {}): ResolvedSubject {
  const subject = unwrapDefaultExport(input);
  if (isContextModuleLike(subject)) {
    return { kind: "module", create: () => mountModule(subject, options.config ?? {}) };
  }
  if (typeof subject !== "function") {
    throw new TypeError("ctxkit-conformance: expected a factory () => ContextManager or a context module (meta, mount)");
  }
  const factory = subject as ContextManagerFactory;
  return { kind: "factory", create: () => callFactory(factory, options.subscribe) };
}
