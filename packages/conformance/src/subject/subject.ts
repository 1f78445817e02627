// What the kit tests: a factory of managers, or a context module that mounts one on a coordinator.
import { ContextArgumentError, createCoordinator, type ContextManager, type Coordinator } from "@ctxkit/core";
import { isContextManager } from "@ctxkit/core/kit";
import { recordCoordinatorEvents, recordSubscribedEvents, type RecordedEvent } from "./record-events.js";
import { createSessionSettings, resolveConfig, type SessionSettings } from "./session-settings.js";

/**
 * Returns a fresh manager on every call: each property run starts from an empty instance. It may use
 * the settings (the session to open, the kit's summarizer); with `restart: true`, a call with a
 * sessionId seen before must resume that session.
 */
export type ContextManagerFactory = (settings: SessionSettings) => ContextManager | Promise<ContextManager>;

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
  /** The session and summarizer it was opened with; a restart opens them again. */
  readonly settings: SessionSettings;
  /** Everything the manager emitted so far, in order; `undefined` when its events cannot be observed. */
  readonly events: RecordedEvent[] | undefined;
  dispose(): Promise<void>;
}

export interface ResolvedSubject {
  readonly kind: "module" | "factory";
  /**
   * Creates a manager, mounted on a fresh coordinator for a module: on a new session, or on the session
   * of `settings` again (a restart, once the instance that had it is disposed).
   */
  create(settings?: SessionSettings): Promise<ManagerInstance>;
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
  /** The config a module is mounted with, or a function of each instance's settings that returns it. Default `{}`. */
  readonly config?: unknown;
  /** How to hear a plain factory's events; modules use the coordinator's hooks instead. */
  readonly subscribe?: SubscribeToEvents | undefined;
  /** Sessions survive their instance: a factory's managers are closed on dispose, so a restart can reopen them. */
  readonly restart?: boolean | undefined;
}

async function mountModule(module: ContextModuleLike, config: unknown, settings: SessionSettings): Promise<ManagerInstance> {
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
  return { manager, settings, events: recorder.events, dispose };
}

async function callFactory(factory: ContextManagerFactory, options: SubjectOptions, settings: SessionSettings): Promise<ManagerInstance> {
  const { subscribe } = options;
  const manager = await factory(settings);
  if (!isContextManager(manager)) {
    throw new SubjectError(
      "the factory did not return a ContextManager (addMessage, getMessagesForRequest, getMessages, setMessages, clear)",
    );
  }
  // Under restart, a manager with close() (every engine-based one) is closed, so its session can be opened again.
  const close = async () => {
    if (options.restart === true) await (manager as { close?: () => Promise<void> }).close?.();
  };
  if (subscribe === undefined) return { manager, settings, events: undefined, dispose: close };
  const recorder = recordSubscribedEvents(manager, subscribe);
  return { manager, settings, events: recorder.events, dispose: async () => (recorder.stop(), await close()) };
}

export function resolveSubject(input: ConformanceSubject, options: SubjectOptions = {}): ResolvedSubject {
  const subject = unwrapDefaultExport(input);
  if (isContextModuleLike(subject)) {
    return {
      kind: "module",
      create: (settings = createSessionSettings()) => mountModule(subject, resolveConfig(options.config, settings), settings),
    };
  }
  if (typeof subject !== "function") {
    throw new ContextArgumentError("ctxkit-conformance", [
      { path: "subject", message: "expected a factory () => ContextManager or a context module (meta, mount)" },
    ]);
  }
  const factory = subject as ContextManagerFactory;
  return { kind: "factory", create: (settings = createSessionSettings()) => callFactory(factory, options, settings) };
}
