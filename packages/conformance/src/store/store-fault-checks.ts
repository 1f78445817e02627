// The store suite's checks for a failing dependency: a frozen network, a silent server, a damaged state
// record and a second writer. Each runs only when the backend offers its hook, and asserts a typed error
// within a generous bound (a guard, not a speed test).
import { randomUUID } from "node:crypto";
import { ContextError, type Message } from "@ctxkit/core";
import type { MessageStore } from "@ctxkit/core/kit";
import type { StateSnapshot } from "@ctxkit/core/kit";
import { expect } from "vitest";
import type { StoreCheck } from "./store-check.js";

/** A store whose way to its backend a hook controls. */
export interface FaultyStore {
  /** Not opened yet. */
  readonly store: MessageStore;
  /** Releases what the hook set up (a proxy, a fake server) once the check is done. */
  dispose(): Promise<void>;
}

/** A store whose connection to its backend can be frozen. */
export interface FreezableStore extends FaultyStore {
  /** From now on nothing reaches the backend or comes back, and no connection closes: a dead network. */
  freeze(): void;
}

export interface StoreFaultHooks {
  /** How long each call of the fault checks may take to settle. Default 20 s. */
  readonly faultGuardMs?: number;
  /** A store for the session whose network the check freezes. Enables the frozen-network checks. */
  readonly frozenNetwork?: (sessionId: string) => Promise<FreezableStore>;
  /** A store for the session on a server that accepts connections and never answers. Enables the silent-server check. */
  readonly silentServer?: (sessionId: string) => Promise<FaultyStore>;
  /** Damages a strategy-state record of the closed session (a hand edit, a bad disk). Enables the corrupt-state check. */
  readonly corruptState?: (sessionId: string) => Promise<void>;
  /**
   * The factory's stores for one session may be open at once, as the workers of a shared store (one with
   * `sync`). Enables the concurrent-state-writers check: a write over a key another writer changed since
   * must reject with `CONTEXT_STATE_CONFLICT`.
   */
  readonly concurrentStateWriters?: boolean;
}

type Outcome = { readonly settled: true; readonly error?: unknown } | { readonly settled: false };

/** How `promise` ended, or `settled: false` when it was still pending after `guardMs`. */
function settleBefore(promise: Promise<unknown>, guardMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ settled: false }), guardMs);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve({ settled: true });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ settled: true, error });
      },
    );
  });
}

/** Asserts that `promise` rejects with a ctxkit error before the guard. */
async function expectTypedRejection(promise: Promise<unknown>, guardMs: number, what: string): Promise<ContextError> {
  const outcome = await settleBefore(promise, guardMs);
  expect(outcome.settled, `${what} was still pending after ${guardMs} ms`).toBe(true);
  const error = outcome.settled ? outcome.error : undefined;
  expect(error, `${what} resolved, or rejected with an untyped error`).toBeInstanceOf(ContextError);
  return error as ContextError;
}

/** Asserts that `close()` settles before the guard: resolved, or rejected with a ctxkit error saying what it could not flush. */
async function expectBoundedClose(store: MessageStore, guardMs: number): Promise<void> {
  const outcome = await settleBefore(store.close(), guardMs);
  expect(outcome.settled, `close() was still pending after ${guardMs} ms`).toBe(true);
  if (outcome.settled && outcome.error !== undefined)
    expect(outcome.error, "close() rejected with an untyped error").toBeInstanceOf(ContextError);
}

const skipped = (title: string, hook: string): StoreCheck => ({
  title,
  skipped: `the backend offers no ${hook} hook`,
  run: async () => {},
});

/** The checks of a failing dependency, each skipped (and saying so) when the backend offers no hook for it. */
export function storeFaultChecks(
  factory: (sessionId: string) => MessageStore | Promise<MessageStore>,
  hooks: StoreFaultHooks,
  samples: { readonly message: (index: number) => Message; readonly plain: (state: StateSnapshot) => unknown },
): StoreCheck[] {
  const guardMs = hooks.faultGuardMs ?? 20_000;
  const timeoutMs = 3 * guardMs + 10_000;
  const { message, plain } = samples;
  const checks: StoreCheck[] = [];

  const frozenNetwork = hooks.frozenNetwork;
  const frozenWriteTitle = "should reject a write on a frozen network with a typed error within a bound, and still close";
  const frozenCloseTitle = "should finish close() within a bound when the network froze mid-write, with the write rejected";
  if (frozenNetwork === undefined) {
    checks.push(skipped(frozenWriteTitle, "frozenNetwork"), skipped(frozenCloseTitle, "frozenNetwork"));
  } else {
    /** A store with one message stored, its network then frozen; `body` runs against it, and the hook's set-up is released after. */
    const onFrozenStore = async (body: (store: MessageStore) => Promise<void>) => {
      const faulty = await frozenNetwork(randomUUID());
      try {
        await faulty.store.open();
        await faulty.store.load();
        await faulty.store.append(message(0));
        faulty.freeze();
        await body(faulty.store);
      } finally {
        await faulty.dispose();
      }
    };
    checks.push({
      title: frozenWriteTitle,
      timeoutMs,
      run: () =>
        onFrozenStore(async (store) => {
          await expectTypedRejection(store.append(message(1)), guardMs, "an append on a frozen network");
          await expectBoundedClose(store, guardMs);
        }),
    });
    checks.push({
      title: frozenCloseTitle,
      timeoutMs,
      run: () =>
        onFrozenStore(async (store) => {
          const write = store.writeState({ strategy: "summary", key: "checkpoint", value: { through: 0 } });
          // Checked after close(); handled from now on, so its rejection meanwhile is not reported as unhandled.
          write.catch(() => {});
          await expectBoundedClose(store, guardMs);
          await expectTypedRejection(write, guardMs, "a state write cut off by close()");
        }),
    });
  }

  const silentServer = hooks.silentServer;
  const silentTitle = "should reject opening against a server that never answers with a typed error within a bound";
  if (silentServer === undefined) checks.push(skipped(silentTitle, "silentServer"));
  else
    checks.push({
      title: silentTitle,
      timeoutMs,
      run: async () => {
        const faulty = await silentServer(randomUUID());
        try {
          const opening = faulty.store.open().then(() => faulty.store.load());
          await expectTypedRejection(opening, guardMs, "opening against a silent server");
          await expectBoundedClose(faulty.store, guardMs);
        } finally {
          await faulty.dispose();
        }
      },
    });

  const corruptState = hooks.corruptState;
  const corruptTitle = "should report a damaged state record with a typed error, every time it is opened";
  if (corruptState === undefined) checks.push(skipped(corruptTitle, "corruptState"));
  else
    checks.push({
      title: corruptTitle,
      run: async () => {
        const sessionId = randomUUID();
        const store = await factory(sessionId);
        await store.open();
        await store.load();
        await store.append(message(0));
        await store.writeState({ strategy: "summary", key: "checkpoint", value: { through: 0 } });
        await store.close();
        await corruptState(sessionId);
        for (let attempt = 0; attempt < 2; attempt += 1) {
          const again = await factory(sessionId);
          const error = await expectTypedRejection(
            again.open().then(() => again.load()),
            guardMs,
            "opening a session with a damaged state record",
          ).finally(() => again.close());
          expect(error.code).toBe("CONTEXT_STORE_CORRUPT");
        }
      },
    });

  const concurrentTitle = "should reject a state write over a key another writer changed since, write nothing, and take it after a sync";
  if (hooks.concurrentStateWriters !== true) checks.push(skipped(concurrentTitle, "concurrentStateWriters"));
  else
    checks.push({
      title: concurrentTitle,
      run: async () => {
        const sessionId = randomUUID();
        const first = await factory(sessionId);
        const second = await factory(sessionId);
        for (const store of [first, second]) {
          await store.open();
          await store.load();
        }
        expect(typeof second.sync, "a store written by several writers at once must implement sync()").toBe("function");
        await first.writeState({ strategy: "summary", key: "checkpoint", value: "first" });
        const conflict = await expectTypedRejection(
          second.writeState({ strategy: "summary", key: "checkpoint", value: "second" }),
          guardMs,
          "a state write over another writer's change",
        );
        expect(conflict.code).toBe("CONTEXT_STATE_CONFLICT");
        const reader = await factory(sessionId);
        await reader.open();
        expect(plain((await reader.load()).state)).toEqual({ summary: { checkpoint: "first" } });
        await reader.close();
        // After a sync the same write goes through, and the store is still usable.
        await second.sync!();
        await second.writeState({ strategy: "summary", key: "checkpoint", value: "second" });
        await second.append(message(1));
        await Promise.all([first.close(), second.close()]);
        const last = await factory(sessionId);
        await last.open();
        expect(plain((await last.load()).state)).toEqual({ summary: { checkpoint: "second" } });
        await last.close();
      },
    });
  return checks;
}
