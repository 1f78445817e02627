// The store suite's checks for hostile records and hostile failures: each kind of record damaged by hand,
// a connection's secret that must reach no error, event or log line, and close() within its documented
// bound on a frozen network. Each runs only when the backend offers its hook, and says why when it does not.
import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import { ContextError, createContextManager, type Message } from "@ctxkit/core";
import type { MessageStore } from "@ctxkit/core/kit";
import { expect } from "vitest";
import type { StoreCheck } from "./store-check.js";
import type { FaultyStore, FreezableStore } from "./store-fault-checks.js";

/**
 * The records a store keeps for a session, by what a hand edit or a bad disk can break:
 * - `message`: a stored message that is no longer one (not JSON, not a message `addMessage` accepts);
 * - `counters`: what the store counts the session by (a generation, a last sequence number, a version)
 *   edited so it no longer matches, or is no number at all;
 * - `state`: a strategy-state record that is no longer readable (its value, its version);
 * - `key-type`: a key or table replaced by one of another type (a Redis list replaced by a string).
 */
export type CorruptRecordKind = "message" | "counters" | "state" | "key-type";

export const CORRUPT_RECORD_KINDS: readonly CorruptRecordKind[] = ["message", "counters", "state", "key-type"];

/** Stores given a known secret (a password in their URL or options), each for one way of failing. */
export interface CredentialStores {
  /** The secret every store below is given; no error, event or log line may hold it. */
  readonly secret: string;
  /** A store whose server refuses the secret (a wrong user or password), where the backend authenticates. */
  readonly badAuth?: (sessionId: string) => Promise<FaultyStore>;
  /** A store whose server is not there (a closed port). */
  readonly unreachable?: (sessionId: string) => Promise<FaultyStore>;
  /** A store on a server that accepts the secret, whose network the check freezes after a first write. */
  readonly frozen?: (sessionId: string) => Promise<FreezableStore>;
  /**
   * Stores given the secret on a server that accepts it, and a way to damage their session's records as
   * `corruptRecords` does: what opening a damaged session reports is searched for the secret too.
   */
  readonly corrupt?: {
    readonly kinds: readonly CorruptRecordKind[];
    store(sessionId: string): MessageStore | Promise<MessageStore>;
    damage(sessionId: string, kind: CorruptRecordKind): Promise<void>;
  };
}

export interface StoreHostileHooks {
  /**
   * Damages one kind of record of the closed session in the real backend (`kinds` lists those the backend
   * has). Enables one check per kind: the session then opens with `CONTEXT_STORE_CORRUPT` naming the record,
   * never a TypeError, a conflict or "unavailable"; and, for a shared store (one with `sync`), a live worker
   * that syncs and writes gets that error too, or none.
   */
  readonly corruptRecords?: {
    readonly kinds: readonly CorruptRecordKind[];
    corrupt(sessionId: string, kind: CorruptRecordKind): Promise<void>;
  };
  /** Enables the credential check: every failure it can provoke must keep `secret` out of what a caller sees. */
  readonly credentials?: CredentialStores;
  /**
   * The bound the backend documents for `close()` (its `closeTimeoutMs`, say) for the stores `frozenNetwork`
   * makes, and the code of the typed error `close()` rejects with when it gave up on a write, if it does.
   * Enables the check that close() settles within that bound with the network frozen mid-write.
   */
  readonly closeBound?: { readonly timeoutMs: number; readonly errorCode?: string };
  /** The same `frozenNetwork` hook the fault checks use. */
  readonly frozenNetwork?: (sessionId: string) => Promise<FreezableStore>;
}

type Outcome = { readonly settled: true; readonly error?: unknown } | { readonly settled: false };

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

const failureOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** A ctxkit error whose code says what happened, looking through the manager's `ContextClosedError` to its cause. */
function reported(error: unknown): unknown {
  return error instanceof ContextError && error.code === "CONTEXT_CLOSED" && error.cause !== undefined ? error.cause : error;
}

/** Asserts `CONTEXT_STORE_CORRUPT` naming the record: a location, and a line, a sequence number or an entry. */
function expectCorruptReport(error: unknown, what: string): void {
  const report = reported(error);
  expect(report, `${what}: expected CONTEXT_STORE_CORRUPT, got ${describe(report)}`).toBeInstanceOf(ContextError);
  expect((report as ContextError).code, `${what}: ${describe(report)}`).toBe("CONTEXT_STORE_CORRUPT");
  const fields = report as { location?: unknown; line?: unknown; seq?: unknown; entry?: unknown };
  expect(typeof fields.location, `${what}: the error does not name where the session lives`).toBe("string");
  expect(
    [fields.line, fields.seq, fields.entry].some((field) => field !== undefined),
    `${what}: the error names no record (no line, seq or entry)`,
  ).toBe(true);
}

function describe(error: unknown): string {
  if (error === undefined) return "no error";
  if (error instanceof Error) return `${error.name}${error instanceof ContextError ? ` ${error.code}` : ""}: ${error.message}`;
  return String(error);
}

/** Everything a caller could print of `value`: util.inspect of it, and for an error each message and stack of its cause chain. */
function printed(value: unknown): string {
  const parts = [inspect(value, { depth: 20, showHidden: true })];
  for (let link = value, depth = 0; link instanceof Error && depth < 20; link = link.cause, depth += 1)
    parts.push(link.message, String(link.stack));
  return parts.join("\n");
}

const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug"] as const;

/** Runs `body` with the console's output also kept in `lines`, so a check can search the log lines a failure wrote. */
async function capturingConsole(lines: string[], body: () => Promise<void>): Promise<void> {
  const originals = CONSOLE_METHODS.map((method) => [method, console[method]] as const);
  for (const [method, original] of originals) {
    console[method] = (...args: unknown[]) => {
      lines.push(args.map((arg) => (typeof arg === "string" ? arg : printed(arg))).join(" "));
      original.apply(console, args);
    };
  }
  try {
    await body();
  } finally {
    for (const [method, original] of originals) console[method] = original;
  }
}

/**
 * What a live worker of a shared store reads or writes next meets the damage (`CONTEXT_STORE_CORRUPT`) or
 * does not touch it; never another error. A state write may be refused as a conflict when the damage
 * changed a version, as long as the sync that follows (as the contract asks of the caller) reports the
 * damage: a conflict that syncing never clears is a retry loop that ends in a misleading error.
 */
async function expectLiveWorkerStops(live: MessageStore, kind: CorruptRecordKind): Promise<void> {
  const checkpoint = { strategy: "summary", key: "checkpoint", value: { through: 2 } } as const;
  for (let round = 1; round <= 3; round += 1) {
    const synced = await failureOf(live.sync!());
    if (synced !== undefined) return expectCorruptReport(synced, `a live worker's sync after a ${kind} record was damaged`);
    const written = await failureOf(live.writeState(checkpoint));
    if (written === undefined) break;
    if (written instanceof ContextError && written.code === "CONTEXT_STATE_CONFLICT") {
      expect(round, `a live worker's state write after a ${kind} record was damaged conflicts after every sync`).toBeLessThan(3);
      continue;
    }
    return expectCorruptReport(written, `a live worker's state write after a ${kind} record was damaged`);
  }
  const appended = await failureOf(live.append({ role: "user", content: "after the damage" }));
  if (appended !== undefined) expectCorruptReport(appended, `a live worker's append after a ${kind} record was damaged`);
}

export function storeHostileChecks(
  factory: (sessionId: string) => MessageStore | Promise<MessageStore>,
  hooks: StoreHostileHooks,
  samples: { readonly message: (index: number) => Message },
  guardMs: number,
): StoreCheck[] {
  const { message } = samples;
  const checks: StoreCheck[] = [];
  const timeoutMs = 3 * guardMs + 10_000;

  for (const kind of CORRUPT_RECORD_KINDS) {
    const title = `should report a corrupt ${kind} record with CONTEXT_STORE_CORRUPT naming it, at open and to a live worker`;
    const corruptRecords = hooks.corruptRecords;
    if (corruptRecords === undefined) {
      checks.push({ title, skipped: "the backend offers no corruptRecords hook", run: async () => {} });
      continue;
    }
    if (!corruptRecords.kinds.includes(kind)) {
      checks.push({ title, skipped: `the backend keeps no ${kind} record (corruptRecords.kinds)`, run: async () => {} });
      continue;
    }
    checks.push({
      title,
      timeoutMs,
      run: async () => {
        const sessionId = randomUUID();
        const writer = await factory(sessionId);
        await writer.open();
        await writer.load();
        for (let index = 0; index < 3; index += 1) await writer.append(message(index));
        await writer.writeState({ strategy: "summary", key: "checkpoint", value: { through: 1 } });
        // A second writer of a shared store stays open across the damage, as a live worker would.
        const live = typeof writer.sync === "function" ? await factory(sessionId) : undefined;
        if (live !== undefined) {
          await live.open();
          await live.load();
        }
        await writer.close();
        try {
          await corruptRecords.corrupt(sessionId, kind);
          for (let attempt = 0; attempt < 2; attempt += 1) {
            const again = await factory(sessionId);
            const outcome = await settleBefore(
              again.open().then(() => again.load()),
              guardMs,
            );
            await again.close().catch(() => {});
            expect(outcome.settled, `opening a session with a corrupt ${kind} record was still pending after ${guardMs} ms`).toBe(true);
            expectCorruptReport(outcome.settled ? outcome.error : undefined, `opening a session with a corrupt ${kind} record`);
          }
          if (live !== undefined) await expectLiveWorkerStops(live, kind);
        } finally {
          await live?.close().catch(() => {});
        }
      },
    });
  }

  const credentialsTitle = "should keep the connection's secret out of every error, cause, inspect output, event and log line";
  const credentials = hooks.credentials;
  if (credentials === undefined)
    checks.push({ title: credentialsTitle, skipped: "the backend offers no credentials hook", run: async () => {} });
  else
    checks.push({
      title: credentialsTitle,
      timeoutMs: 4 * timeoutMs,
      run: async () => {
        const { secret } = credentials;
        const seen: { readonly what: string; readonly text: string }[] = [];
        const logLines: string[] = [];
        const events: { readonly name: string; readonly payload: unknown }[] = [];
        const keep = (what: string, value: unknown) => void (value !== undefined && seen.push({ what, text: printed(value) }));
        const open = (store: MessageStore) =>
          createContextManager({
            store,
            tokenizer: "estimate",
            onEvent: (name: string, payload: unknown) => void events.push({ name, payload }),
          });
        let provoked = 0;
        await capturingConsole(logLines, async () => {
          for (const [what, make] of [
            ["a refused secret", credentials.badAuth],
            ["an unreachable server", credentials.unreachable],
          ] as const) {
            if (make === undefined) continue;
            const faulty = await make(randomUUID());
            try {
              const outcome = await settleBefore(open(faulty.store), guardMs);
              expect(outcome.settled, `opening with ${what} was still pending after ${guardMs} ms`).toBe(true);
              const error = outcome.settled ? outcome.error : undefined;
              expect(error, `opening with ${what} succeeded`).toBeInstanceOf(ContextError);
              keep(`the error of opening with ${what}`, error);
              provoked += 1;
            } finally {
              await faulty.store.close().catch((error: unknown) => keep(`close() after ${what}`, error));
              await faulty.dispose();
            }
          }
          for (const kind of credentials.corrupt?.kinds ?? []) {
            const { store, damage } = credentials.corrupt!;
            const sessionId = randomUUID();
            const writer = await store(sessionId);
            await writer.open();
            await writer.load();
            for (let index = 0; index < 3; index += 1) await writer.append(message(index));
            await writer.writeState({ strategy: "summary", key: "checkpoint", value: { through: 1 } });
            await writer.close();
            await damage(sessionId, kind);
            const outcome = await settleBefore(
              open(await store(sessionId)).then((manager) => manager.close()),
              guardMs,
            );
            // An open that succeeds is the corrupt-record checks' to report; here only what it printed counts.
            expect(outcome.settled, `opening a session with a corrupt ${kind} record was still pending after ${guardMs} ms`).toBe(true);
            keep(`the error of opening a session with a corrupt ${kind} record`, outcome.settled ? outcome.error : undefined);
            provoked += 1;
          }
          if (credentials.frozen !== undefined) {
            const faulty = await credentials.frozen(randomUUID());
            try {
              const manager = await open(faulty.store);
              await manager.addMessage({ role: "user", content: "before the freeze" });
              faulty.freeze();
              const write = failureOf(manager.addMessage({ role: "user", content: "frozen" }));
              const closed = await settleBefore(manager.close(), guardMs);
              expect(closed.settled, `close() on a frozen network was still pending after ${guardMs} ms`).toBe(true);
              if (closed.settled) keep("close() on a frozen network", closed.error);
              keep("a write on a frozen network", await write);
              provoked += 1;
            } finally {
              await faulty.dispose();
            }
          }
        });
        expect(provoked, "the credentials hook gives no store to fail with (badAuth, unreachable or frozen)").toBeGreaterThan(0);
        for (const event of events) seen.push({ what: `the event ${event.name}`, text: printed(event.payload) });
        for (const line of logLines) seen.push({ what: "a log line", text: line });
        const forms = [...new Set([secret, encodeURIComponent(secret)])];
        for (const { what, text } of seen)
          for (const form of forms) expect(text.includes(form), `${what} holds the secret:\n${text.replace(form, "<secret>")}`).toBe(false);
      },
    });

  const closeTitle = "should settle close() within its documented bound when the network froze mid-write, with the documented error";
  const { closeBound, frozenNetwork } = hooks;
  if (closeBound === undefined || frozenNetwork === undefined)
    checks.push({
      title: closeTitle,
      skipped: `the backend offers no ${closeBound === undefined ? "closeBound" : "frozenNetwork"} hook`,
      run: async () => {},
    });
  else
    checks.push({
      title: closeTitle,
      timeoutMs,
      run: async () => {
        const faulty = await frozenNetwork(randomUUID());
        try {
          const { store } = faulty;
          await store.open();
          await store.load();
          await store.append(message(0));
          faulty.freeze();
          const write = store.append(message(1));
          // Checked after close(); handled from now on, so its rejection meanwhile is not reported as unhandled.
          write.catch(() => {});
          // Twice the bound and a second more: a guard against a loaded machine, not a speed test. A close
          // that waits for the frozen network (a statement, a command, a reconnect) takes far longer.
          const bound = 2 * closeBound.timeoutMs + 1_000;
          const closed = await settleBefore(store.close(), bound);
          expect(closed.settled, `close() was still pending ${bound} ms after it was called (its bound: ${closeBound.timeoutMs} ms)`).toBe(
            true,
          );
          const error = closed.settled ? closed.error : undefined;
          if (error !== undefined) {
            expect(error, `close() rejected with an untyped error: ${describe(error)}`).toBeInstanceOf(ContextError);
            if (closeBound.errorCode !== undefined) expect((error as ContextError).code).toBe(closeBound.errorCode);
          }
          const written = await settleBefore(write, guardMs);
          expect(written.settled, "the write cut off by close() was still pending").toBe(true);
          const writeError = written.settled ? written.error : undefined;
          expect(writeError, `the write cut off by close() ${describe(writeError)}`).toBeInstanceOf(ContextError);
        } finally {
          await faulty.dispose();
        }
        // Through a manager too: its close() waits for the calls made before it (here a pin, a read then a
        // state write, frozen on the network), so the store's bound must start when that close() does
        // (`beginClose`), not when the manager finally hands the store its own close().
        const managed = await frozenNetwork(randomUUID());
        try {
          const manager = await createContextManager({ store: managed.store, tokenizer: "estimate" });
          await manager.addMessage({ role: "user", content: "before the freeze" });
          managed.freeze();
          const pin = manager.pinMessage(0);
          pin.catch(() => {});
          const bound = 2 * closeBound.timeoutMs + 1_000;
          const closed = await settleBefore(manager.close(), bound);
          expect(
            closed.settled,
            `the manager's close() was still pending ${bound} ms after it was called, with a pin frozen in flight (the store's bound: ${closeBound.timeoutMs} ms)`,
          ).toBe(true);
          const error = closed.settled ? closed.error : undefined;
          if (error !== undefined)
            expect(error, `the manager's close() rejected with an untyped error: ${describe(error)}`).toBeInstanceOf(ContextError);
        } finally {
          await managed.dispose();
        }
      },
    });
  return checks;
}
