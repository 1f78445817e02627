// A ctxkit context manager as a replay system: one manager per budget, its refusals and compactions recorded.
import { ContextBudgetError, type ContextManager, type EventHandler, type Message } from "@ctxkit/core";
import type { ReplaySession, ReplaySystem } from "./replay-cost.js";

/** Builds the manager a replay drives; `onEvent` must reach it, so compactions are counted. */
export type CreateReplayManager = (onEvent: EventHandler) => ContextManager | Promise<ContextManager>;

interface Closable {
  close(): Promise<void>;
}

interface WithBackground {
  flushBackground(): Promise<void>;
}

const hasBackground = (manager: ContextManager): manager is ContextManager & WithBackground =>
  typeof (manager as Partial<WithBackground>).flushBackground === "function";

const isClosable = (manager: ContextManager): manager is ContextManager & Closable =>
  typeof (manager as Partial<Closable>).close === "function";

/**
 * A replay system over a fresh manager per budget, asking each view with `{ tokenBudget: budget }`. A
 * `ContextBudgetError` is a refusal, not a failure; a `context:pre_compact` marks the request as a compaction.
 */
export function managerSystem(create: CreateReplayManager): ReplaySystem {
  return {
    create(budget) {
      let compacted = false;
      const manager = Promise.resolve(
        create((event) => {
          if (event === "context:pre_compact") compacted = true;
        }),
      );
      // A rejected creation is reported by the first call that awaits it, not as an unhandled rejection.
      manager.catch(() => undefined);
      const session: ReplaySession = {
        add: async (message: Message) => (await manager).addMessage(message),
        async request() {
          const ready = await manager;
          // Background work (a session memory's summary) finishes first, so the replay does not depend on timing.
          if (hasBackground(ready)) await ready.flushBackground();
          compacted = false;
          try {
            return await ready.getMessagesForRequest({ tokenBudget: budget });
          } catch (error) {
            if (error instanceof ContextBudgetError) return "refused";
            throw error;
          }
        },
        lastRequestCompacted: () => compacted,
        async close() {
          const ready = await manager.catch(() => undefined);
          if (ready !== undefined && isClosable(ready)) await ready.close();
        },
      };
      return session;
    },
  };
}

/** Every message, every time: the reference a replay's cost is divided by. */
export const FULL_HISTORY: ReplaySystem = {
  create() {
    const history: Message[] = [];
    return {
      add: (message) => void history.push(message),
      request: async () => history.slice(),
    };
  },
};
