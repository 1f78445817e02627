// Builds a context module around the real context-simple manager, with one behaviour replaced.
// context-simple is imported by path: a workspace dependency on it would make a cycle, because
// context-simple runs this kit in its own tests.
import {
  CONTEXT_EVENTS,
  type CompactCapability,
  type ContextConfig,
  type ContextEventName,
  type ContextManager,
  type Coordinator,
  type Message,
  type OverflowRecoveryCapability,
  type RequestOptions,
  type UsageCapability,
} from "@ctxkit/core";
import { z } from "zod";
import { SimpleContextManager } from "../../../context-simple/src/index.js";

type FullManager = ContextManager & CompactCapability & OverflowRecoveryCapability & UsageCapability;

export interface Overrides {
  /** Rewrites each view the real manager returned. */
  readonly view?: (view: Message[], inner: SimpleContextManager) => Message[] | Promise<Message[]>;
  /** Replaces whole methods; `inner` is the real manager. */
  readonly methods?: (inner: SimpleContextManager) => Partial<FullManager>;
  /** Changes the budget the real manager is asked for. */
  readonly budget?: (budget: number | undefined) => number | undefined;
  /** Whether the events reach the coordinator's hooks. Default true. */
  readonly emitsEvents?: boolean;
  /** Rewrites the payload of each event before it reaches the hooks. */
  readonly event?: (event: ContextEventName, payload: unknown) => unknown;
  /** The config of the real manager inside, on top of the config the module is mounted with. */
  readonly config?: ContextConfig;
}

/** A manager that delegates to context-simple, capabilities included, except where overridden. */
export function createWrappedManager(inner: SimpleContextManager, overrides: Overrides): ContextManager {
  const budgetOf = (options: RequestOptions = {}): RequestOptions => {
    const tokenBudget = overrides.budget?.(options.tokenBudget) ?? options.tokenBudget;
    return tokenBudget === undefined ? options : { ...options, tokenBudget };
  };
  const wrapped = {
    addMessage: (message: Message) => inner.addMessage(message),
    getMessagesForRequest: async (options?: RequestOptions) => {
      const view = await inner.getMessagesForRequest(budgetOf(options));
      return overrides.view === undefined ? view : overrides.view(view, inner);
    },
    getMessages: () => inner.getMessages(),
    setMessages: (messages: Message[]) => inner.setMessages(messages),
    clear: () => inner.clear(),
    compact: (options?: RequestOptions) => inner.compact(budgetOf(options)),
    recoverOverflow: async (error: unknown, options?: RequestOptions) => {
      const view = await inner.recoverOverflow(error, budgetOf(options));
      return overrides.view === undefined ? view : overrides.view(view, inner);
    },
    usage: () => inner.usage(),
  };
  return { ...wrapped, ...overrides.methods?.(inner) };
}

/** A module (meta, configSchema, mount) whose manager is context-simple with `overrides` applied. */
export function createBrokenModule(name: string, overrides: Overrides) {
  return {
    meta: { type: "context" as const, name },
    // Only what the kit's own tests mount them with: strategies (a summary on the kit's summarizer).
    configSchema: z.strictObject({ strategies: z.array(z.unknown()).optional() }),
    async mount(coordinator: Coordinator, config: ContextConfig = {}) {
      const inner = new SimpleContextManager({ ...config, ...overrides.config });
      const removeHandler =
        overrides.emitsEvents === false
          ? () => {}
          : inner.addEventHandler((event, payload) => coordinator.hooks.emit(event, overrides.event?.(event, payload) ?? payload));
      await coordinator.mount("context", createWrappedManager(inner, overrides));
      if (overrides.emitsEvents !== false) coordinator.registerContributor("observability.events", name, () => [...CONTEXT_EVENTS]);
      return () => {
        removeHandler();
        void coordinator.unmount("context");
      };
    },
  };
}
