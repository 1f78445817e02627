// The store contract's checks, for any MessageStore: each a title and a body that throws when the store breaks it.
// describeMessageStore registers them in vitest; the kit's own tests run them against broken stores.
import { randomUUID } from "node:crypto";
import { ContextError, type Message } from "@ctxkit/core";
import type { MessageStore } from "@ctxkit/core/kit";
import type { StateSnapshot } from "@ctxkit/core/kit";
import { expect } from "vitest";
import type { StoreCheck } from "./store-check.js";
import { type StoreFaultHooks, storeFaultChecks } from "./store-fault-checks.js";
import { type StoreHostileHooks, storeHostileChecks } from "./store-hostile-checks.js";
import { storeConditionalChecks } from "./store-conditional-checks.js";
import { storeTimeChecks } from "./store-time-checks.js";

/** Opens a store for a session: called again with the same id after `close()`, it is the restart of that session. */
export type MessageStoreFactory = (sessionId: string) => MessageStore | Promise<MessageStore>;

export interface MessageStoreSuiteOptions extends StoreFaultHooks, StoreHostileHooks {
  /** How many appends the concurrency check keeps in flight at once. Default 50. */
  readonly concurrentAppends?: number;
  /**
   * Damages the stored data of a closed session, as a bad disk or a hand edit would (a line or a row that
   * is no longer a message). Enables the corruption check; without it that check is skipped and says why.
   */
  readonly corrupt?: (sessionId: string) => Promise<void>;
  /**
   * Calls `replace(messages, state)` on the closed session from a process or connection that it then
   * kills mid-way (a child process killed with SIGKILL, a server backend terminated). Enables the
   * atomic-replace-under-a-crash check; without it that check is skipped and says why.
   */
  readonly crashDuringReplace?: (sessionId: string, messages: readonly Message[], state: StateSnapshot) => Promise<void>;
}

const message = (index: number): Message => ({ role: "user", content: `message ${index}`, metadata: { index } });
const stateOf = (entries: Record<string, Record<string, unknown>>): StateSnapshot =>
  new Map(Object.entries(entries).map(([strategy, values]) => [strategy, new Map(Object.entries(values))]));
/** Big enough that a replace takes a while (a few MB, hundreds of state keys), so a kill lands inside it. */
const bulky = (index: number): Message => ({ role: "assistant", content: `replacement ${index} `.padEnd(2_000, "x") });
const bulkyState = (): StateSnapshot =>
  stateOf({ summary: Object.fromEntries(Array.from({ length: 300 }, (_, key) => [`key-${key}`, { key }])) });

const plain = (state: StateSnapshot) => Object.fromEntries([...state].map(([strategy, values]) => [strategy, Object.fromEntries(values)]));

/**
 * The store contract's checks for `factory`'s stores: append order, concurrent appends, state records,
 * atomic replace and clear, restart equality, and close; and, when the backend offers the hooks, atomic
 * replace under a crash, corruption reported with a typed error, and bounded, typed failures on a frozen
 * network, a silent server, a damaged state record and a second state writer. A check without its hook
 * is listed as skipped, with the hook it needs.
 */
export function storeChecks(factory: MessageStoreFactory, options: MessageStoreSuiteOptions = {}): StoreCheck[] {
  const checks: StoreCheck[] = [];
  const check = (title: string, run: () => Promise<void>, timeoutMs?: number) =>
    void checks.push({ title, run, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  const skip = (title: string, hook: string) =>
    void checks.push({ title, skipped: `the backend offers no ${hook} hook`, run: async () => {} });
  const concurrent = options.concurrentAppends ?? 50;

  async function opened(sessionId: string = randomUUID()): Promise<{ store: MessageStore; sessionId: string }> {
    const store = await factory(sessionId);
    await store.open();
    return { store, sessionId };
  }

  /** Opens and loads a session, and always closes the store again. */
  async function openAndLoad(sessionId: string): Promise<void> {
    const store = await factory(sessionId);
    try {
      await store.open();
      await store.load();
    } finally {
      await store.close();
    }
  }

  /** Closes `store` and opens the session again, as a restarted process would. */
  async function restart(store: MessageStore, sessionId: string) {
    await store.close();
    const { store: again } = await opened(sessionId);
    return { store: again, session: await again.load() };
  }

  check("should load a new session empty", async () => {
    const { store } = await opened();
    const session = await store.load();
    expect(session.messages).toEqual([]);
    expect(plain(session.state)).toEqual({});
    await store.close();
  });

  check("should hand out what it loads as copies: changing them changes nothing stored", async () => {
    const { store, sessionId } = await opened();
    await store.load();
    await store.append(message(0));
    await store.writeState({ strategy: "summary", key: "kept", value: 1 });
    const { store: again, session } = await restart(store, sessionId);
    (session.messages as Message[]).push(message(1));
    (session.state as Map<string, Map<string, unknown>>).set("intruder", new Map([["k", 1]]));
    (session.state.get("summary") as Map<string, unknown>).set("kept", 2);
    const { store: third, session: after } = await restart(again, sessionId);
    expect(after.messages).toEqual([message(0)]);
    expect(plain(after.state)).toEqual({ summary: { kept: 1 } });
    await third.close();
  });

  check("should keep appends in call order across a restart", async () => {
    const { store, sessionId } = await opened();
    await store.load();
    for (let index = 0; index < 5; index += 1) await store.append(message(index));
    const { store: again, session } = await restart(store, sessionId);
    expect(session.messages).toEqual([0, 1, 2, 3, 4].map(message));
    await again.close();
  });

  check(`should land ${concurrent} appends in flight at once, each once, in call order`, async () => {
    const { store, sessionId } = await opened();
    await store.load();
    await Promise.all(Array.from({ length: concurrent }, (_, index) => store.append(message(index))));
    const { store: again, session } = await restart(store, sessionId);
    expect(session.messages).toEqual(Array.from({ length: concurrent }, (_, index) => message(index)));
    await again.close();
  });

  check("should record state changes and give the latest value of each key after a restart", async () => {
    const { store, sessionId } = await opened();
    await store.load();
    await store.writeState({ strategy: "summary", key: "checkpoint", value: { through: 1 } });
    await store.writeState({ strategy: "summary", key: "checkpoint", value: { through: 2 } });
    await store.writeState({ strategy: "summary", key: "stale", value: true });
    await store.writeState({ strategy: "summary", key: "stale", deleted: true });
    await store.writeState({ strategy: "other", key: "k", value: "v" });
    const { store: again, session } = await restart(store, sessionId);
    expect(plain(session.state)).toEqual({ summary: { checkpoint: { through: 2 } }, other: { k: "v" } });
    await again.close();
  });

  check("should replace the whole content, state included, and keep appending after it", async () => {
    const { store, sessionId } = await opened();
    await store.load();
    await store.append(message(0));
    await store.writeState({ strategy: "summary", key: "old", value: 1 });
    await store.replace([message(7), message(8)], stateOf({ summary: { fresh: 2 } }));
    await store.append(message(9));
    const { store: again, session } = await restart(store, sessionId);
    expect(session.messages).toEqual([message(7), message(8), message(9)]);
    expect(plain(session.state)).toEqual({ summary: { fresh: 2 } });
    await again.close();
  });

  check("should clear the messages and keep the state it is given", async () => {
    const { store, sessionId } = await opened();
    await store.load();
    await store.append(message(0));
    await store.clear(stateOf({ summary: { kept: true } }));
    const { store: again, session } = await restart(store, sessionId);
    expect(session.messages).toEqual([]);
    expect(plain(session.state)).toEqual({ summary: { kept: true } });
    await again.close();
  });

  check("should give back exactly what it was given: key order, unicode, nested data", async () => {
    const { store, sessionId } = await opened();
    await store.load();
    const given: Message = {
      role: "tool",
      tool_call_id: "call_1",
      content: '東京 👩‍💻 \u0000 "quoted"',
      metadata: { z: 1, a: [{ b: null }] },
    };
    await store.append(given);
    const { store: again, session } = await restart(store, sessionId);
    expect(JSON.stringify(session.messages[0])).toBe(JSON.stringify(given));
    await again.close();
  });

  const crash = options.crashDuringReplace;
  const crashTitle = "should leave the old content or the new, whole, when a replace is killed mid-way";
  if (crash === undefined) skip(crashTitle, "crashDuringReplace");
  else
    check(
      crashTitle,
      async () => {
        const { store, sessionId } = await opened();
        await store.load();
        const old = [message(0), message(1)];
        for (const each of old) await store.append(each);
        await store.writeState({ strategy: "summary", key: "old", value: 1 });
        await store.close();
        const replacement = Array.from({ length: 1_500 }, (_, index) => bulky(index));
        const replacementState = bulkyState();
        await crash(sessionId, replacement, replacementState);
        const { store: again } = await opened(sessionId);
        const session = await again.load();
        // Whole, either way: no mix of the two, no half-written history, state that goes with its messages.
        const isOld = session.messages.length === old.length;
        if (isOld) {
          expect(session.messages).toEqual(old);
          expect(plain(session.state)).toEqual({ summary: { old: 1 } });
        } else {
          expect(session.messages).toEqual(replacement);
          expect(plain(session.state)).toEqual(plain(replacementState));
        }
        // And the session goes on working.
        await again.append(message(9));
        const { store: third, session: after } = await restart(again, sessionId);
        expect(after.messages.at(-1)).toEqual(message(9));
        expect(after.messages).toHaveLength(session.messages.length + 1);
        await third.close();
      },
      60_000,
    );

  const corrupt = options.corrupt;
  const corruptTitle = "should report a corrupt session with a typed error, every time it is opened, and change nothing";
  if (corrupt === undefined) skip(corruptTitle, "corrupt");
  else
    check(corruptTitle, async () => {
      const { store, sessionId } = await opened();
      await store.load();
      for (let index = 0; index < 3; index += 1) await store.append(message(index));
      await store.writeState({ strategy: "summary", key: "checkpoint", value: { through: 1 } });
      await store.close();
      await corrupt(sessionId);
      // Twice: a store that "repaired" the damage by dropping data the first time would load the second time.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const error = await openAndLoad(sessionId).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error, "opening a corrupt session succeeded").toBeInstanceOf(ContextError);
        expect((error as ContextError).code).toBe("CONTEXT_STORE_CORRUPT");
      }
    });

  check("should finish pending writes at close, be safe to close twice, and refuse writes after with CONTEXT_CLOSED", async () => {
    const { store, sessionId } = await opened();
    await store.load();
    const pending = store.append(message(0));
    await store.close();
    await store.close();
    await pending;
    await expect(store.append(message(1))).rejects.toMatchObject({ code: "CONTEXT_CLOSED" });
    const { store: again, session } = await restart(store, sessionId);
    expect(session.messages).toEqual([message(0)]);
    await again.close();
  });

  checks.push(...storeFaultChecks(factory, options, { message, plain }));
  checks.push(...storeHostileChecks(factory, options, { message }, options.faultGuardMs ?? 20_000));
  checks.push(...storeConditionalChecks(factory, options, { message, plain }));
  checks.push(...storeTimeChecks(factory, { message }));
  return checks;
}
