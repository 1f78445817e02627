// The store suite's checks of a conditional replace: an edit made over a history that changed since it was
// read is refused, changes nothing, and leaves the store usable; for a shared store, across two writers.
import { randomUUID } from "node:crypto";
import { ContextError, type Message } from "@ctxkit/core";
import type { MessageStore } from "@ctxkit/core/kit";
import type { StateSnapshot } from "@ctxkit/core/kit";
import { expect } from "vitest";
import type { StoreCheck } from "./store-check.js";

export interface StoreConditionalHooks {
  /** The factory's stores for one session may be open at once, as the workers of a shared store (one with `sync`). */
  readonly concurrentStateWriters?: boolean;
}

const stateOf = (values: Record<string, unknown>): StateSnapshot => new Map([["summary", new Map(Object.entries(values))]]);

/** Asserts that `replace` rejects with `CONTEXT_HISTORY_CONFLICT`, the one refusal that leaves a store usable. */
async function expectConflict(replace: Promise<void>, what: string): Promise<void> {
  const error = await replace.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `${what} was applied, or rejected with an untyped error`).toBeInstanceOf(ContextError);
  expect((error as ContextError).code, `${what} rejected with another code`).toBe("CONTEXT_HISTORY_CONFLICT");
}

/** The conditional-replace checks; the two-writer one is skipped (and says so) unless the backend's stores share a session. */
export function storeConditionalChecks(
  factory: (sessionId: string) => MessageStore | Promise<MessageStore>,
  hooks: StoreConditionalHooks,
  samples: { readonly message: (index: number) => Message; readonly plain: (state: StateSnapshot) => unknown },
): StoreCheck[] {
  const { message, plain } = samples;

  async function loaded(sessionId: string): Promise<MessageStore> {
    const store = await factory(sessionId);
    await store.open();
    await store.load();
    return store;
  }

  /** What the session holds, read by a store opened for that alone. */
  async function stored(sessionId: string, open: MessageStore[]): Promise<{ messages: readonly Message[]; state: unknown }> {
    if (hooks.concurrentStateWriters !== true) {
      // One writer at a time: the open store is closed, and the session opened again, as a restart would.
      for (const store of open) await store.close();
    }
    const reader = await factory(sessionId);
    await reader.open();
    const session = await reader.load();
    await reader.close();
    return { messages: session.messages, state: plain(session.state) };
  }

  const checks: StoreCheck[] = [
    {
      title: "should refuse a replace over a stale expectation with CONTEXT_HISTORY_CONFLICT, change nothing, and stay usable",
      run: async () => {
        const sessionId = randomUUID();
        const store = await loaded(sessionId);
        await store.append(message(0));
        await store.append(message(1));
        await store.writeState({ strategy: "summary", key: "old", value: 1 });
        await expectConflict(store.replace([message(9)], stateOf({ fresh: 2 }), { length: 1 }), "a replace expecting 1 message over 2");
        await store.append(message(2));
        expect(await stored(sessionId, [store])).toEqual({ messages: [0, 1, 2].map(message), state: { summary: { old: 1 } } });
        const again = hooks.concurrentStateWriters === true ? store : await loaded(sessionId);
        if (again.sync !== undefined) await again.sync();
        await again.replace([message(9)], stateOf({ fresh: 2 }), { length: 3 });
        await again.append(message(10));
        expect(await stored(sessionId, [again])).toEqual({ messages: [message(9), message(10)], state: { summary: { fresh: 2 } } });
        if (hooks.concurrentStateWriters === true) await again.close();
      },
    },
  ];

  const sharedTitle =
    "should refuse a replace over a history another writer appended to or replaced since, change nothing, and take it after a sync";
  if (hooks.concurrentStateWriters !== true) {
    checks.push({ title: sharedTitle, skipped: "the backend offers no concurrentStateWriters hook", run: async () => {} });
    return checks;
  }
  checks.push({
    title: sharedTitle,
    run: async () => {
      const sessionId = randomUUID();
      const first = await loaded(sessionId);
      const second = await loaded(sessionId);
      expect(typeof second.sync, "a store written by several writers at once must implement sync()").toBe("function");
      await first.append(message(0));
      // The second writer still holds the empty history it loaded.
      await expectConflict(second.replace([], stateOf({}), { length: 0 }), "a replace over another writer's append");
      expect((await stored(sessionId, [])).messages).toEqual([message(0)]);
      await second.sync!();
      await second.replace([message(9)], stateOf({ by: "second" }), { length: 1 });
      // As many messages as the first writer expects, but not the history it read: another writer replaced it.
      await expectConflict(first.replace([message(7)], stateOf({ by: "first" }), { length: 1 }), "a replace over another writer's replace");
      expect(await stored(sessionId, [])).toEqual({ messages: [message(9)], state: { summary: { by: "second" } } });
      await first.sync!();
      await first.append(message(10));
      await Promise.all([first.close(), second.close()]);
      expect((await stored(sessionId, [])).messages).toEqual([message(9), message(10)]);
    },
  });
  return checks;
}
