// Deliberately broken MessageStores, each over core's memory store with one flaw, for the store suite to catch.
import { type Message, MemoryMessageStore } from "@ctxkit/core";
import type { MessageStore } from "@ctxkit/core/kit";
import type { StoredSession } from "@ctxkit/core/kit";
import type { MessageStoreFactory } from "../../src/store/store-checks.js";

type Flaw = (inner: MemoryMessageStore) => Partial<MessageStore>;

/** A factory of stores with `flaw`: one store per session, reopened after close() as a restart would. */
function flawedStores(flaw: Flaw): () => MessageStoreFactory {
  return () => {
    const sessions = new Map<string, MessageStore>();
    return (sessionId) => {
      let store = sessions.get(sessionId);
      if (store === undefined) {
        const inner = new MemoryMessageStore(sessionId);
        const overrides = flaw(inner);
        store = {
          sessionId,
          location: inner.location,
          open: () => inner.open(),
          load: () => inner.load(),
          append: (message) => inner.append(message),
          writeState: (change) => inner.writeState(change),
          replace: (messages, state, expected) => inner.replace(messages, state, expected),
          clear: (state) => inner.clear(state),
          close: () => inner.close(),
          ...overrides,
        };
        sessions.set(sessionId, store);
      }
      return store;
    };
  };
}

export const healthyStores = flawedStores(() => ({}));

/** load() hands out the same session object every time, so a caller's change to it is "stored". */
export const handsOutItsOwnArray = flawedStores((inner) => {
  let loaded: StoredSession | undefined;
  return {
    load: async () => (loaded ??= await inner.load()),
    append: async (message) => {
      await inner.append(message);
      (loaded?.messages as Message[] | undefined)?.push(message);
    },
  };
});

/** replace() swaps the messages and keeps the state it had. */
export const keepsOldStateOnReplace = flawedStores((inner) => ({
  replace: async (messages) => inner.replace(messages, (await inner.load()).state),
}));

/** A state deletion is ignored: the deleted key comes back after a restart. */
export const forgetsStateDeletions = flawedStores((inner) => ({
  writeState: (change) => ("deleted" in change ? Promise.resolve() : inner.writeState(change)),
}));

/** Each append waits a random moment first, so appends in flight at once land in any order. */
export const reordersConcurrentAppends = flawedStores((inner) => ({
  append: async (message) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
    await inner.append(message);
  },
}));

/** An append still pending at close() resolves, and is silently lost. */
export const losesWritesPendingAtClose = flawedStores((inner) => ({
  append: (message) => {
    setTimeout(() => inner.append(message).catch(() => {}), 5);
    return Promise.resolve();
  },
}));

/** close() closes nothing: writes after it still resolve. */
export const acceptsWritesAfterClose = flawedStores(() => ({ close: () => Promise.resolve() }));

/** Messages come back with their keys sorted: equal as objects, not as the JSON that was given. */
export const reordersObjectKeys = flawedStores((inner) => ({
  load: async () => {
    const session = await inner.load();
    const sorted = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sorted)
        : value !== null && typeof value === "object"
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
            )
          : value;
    return { ...session, messages: session.messages.map((message) => sorted(message) as Message) };
  },
}));

/** replace() ignores what the caller read: an edit over a stale history deletes what was added since. */
export const replacesUnconditionally = flawedStores((inner) => ({ replace: (messages, state) => inner.replace(messages, state) }));

/** clear() drops the state it is given along with the messages. */
export const clearDropsTheState = flawedStores((inner) => ({ clear: () => inner.clear(new Map()) }));

/** Reports the time of the session's first append as its newest's: a resumed session would think its cache long expired. */
export const reportsTheFirstAppendTime = flawedStores((inner) => {
  let firstAddedAt: number | undefined;
  return {
    append: async (message) => {
      await inner.append(message);
      firstAddedAt ??= Date.now();
    },
    load: async () => {
      const session = await inner.load();
      return firstAddedAt === undefined ? session : { ...session, lastAddedAt: firstAddedAt };
    },
  };
});
