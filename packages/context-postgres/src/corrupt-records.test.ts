import { randomUUID } from "node:crypto";
import { ContextError, ContextStoreCorruptError, createContextManager } from "@ctxkit/core";
import type { ContextEngine } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { describeWithPostgres, withClient } from "../test/postgres-server.js";
import { PostgresMessageStore } from "./postgres-message-store.js";
import { tableNames } from "./schema-sql.js";

const schema = "ctxkit_test";
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/**
 * Asserts a corruption report naming `what`, never a TypeError, a conflict or "unavailable". A failed
 * write closes the manager: its `ContextClosedError` carries the store's report as its cause.
 */
function expectCorrupt(caught: unknown, what: RegExp): void {
  const error = (caught as ContextError | undefined)?.code === "CONTEXT_CLOSED" ? (caught as Error).cause : caught;
  expect(error, "the corrupt session was read without an error").toBeInstanceOf(ContextError);
  expect((error as ContextError).code).toBe("CONTEXT_STORE_CORRUPT");
  // One class for every store: PostgreSQL's own extends core's.
  expect(error).toBeInstanceOf(ContextStoreCorruptError);
  expect((error as Error).message).toMatch(what);
}

describeWithPostgres("rows edited by hand", (connectionString) => {
  const admin = (sql: string, values: unknown[] = []) => withClient(connectionString, (client) => client.query(sql, values));
  const openManager = (sessionId: string, table = "ctxkit"): Promise<ContextEngine> =>
    createContextManager({ store: new PostgresMessageStore({ connectionString, sessionId, schema, table }), tokenizer: "estimate" });

  /** A session with three messages and a pin, and a live worker on it. */
  async function liveSession(table = "ctxkit") {
    const sessionId = randomUUID();
    const worker = await openManager(sessionId, table);
    for (const content of ["first", "second", "third"]) await worker.addMessage({ role: "user", content });
    await worker.pinMessage(0);
    return { sessionId, worker, names: tableNames(schema, table) };
  }

  const CASES = [
    {
      name: "a session row whose last_seq counts messages that are not there",
      edit: (sessionId: string, names: ReturnType<typeof tableNames>) =>
        admin(`UPDATE ${names.sessions} SET last_seq = last_seq + 2 WHERE session_id = $1`, [sessionId]),
      names: /session row \("ctxkit_test"\."ctxkit_sessions"\): its last_seq says 5 messages/,
    },
    {
      name: "a message row deleted from the middle",
      edit: (sessionId: string, names: ReturnType<typeof tableNames>) =>
        admin(`DELETE FROM ${names.messages} WHERE session_id = $1 AND seq = 2`, [sessionId]),
      names: /at seq 2: the row is missing/,
    },
    {
      name: "a state row whose version is not a version",
      edit: (sessionId: string, names: ReturnType<typeof tableNames>) =>
        admin(`UPDATE ${names.state} SET version = 0 WHERE session_id = $1`, [sessionId]),
      names: /state "indices" of "\(pins\)": its version is 0/,
    },
  ];

  for (const { name, edit, names } of CASES) {
    describe(name, () => {
      it("should refuse to open the session with CONTEXT_STORE_CORRUPT naming the row (regression)", async () => {
        const { sessionId, worker, names: tables } = await liveSession();
        await worker.close();
        await edit(sessionId, tables);
        expectCorrupt(await failureOf(openManager(sessionId)), names);
      });
    });
  }

  it("should stop a live worker that syncs a session row counting missing messages (regression)", async () => {
    const { sessionId, worker, names } = await liveSession();
    await CASES[0]!.edit(sessionId, names);
    expectCorrupt(await failureOf(worker.getMessages()), /its last_seq says 5 messages/);
    await worker.close().catch(() => {});
  });

  it("should stop a live worker whose pin meets a state value edited by hand with corruption, not ten conflicts", async () => {
    const { sessionId, worker, names } = await liveSession();
    await admin(`UPDATE ${names.state} SET value = '[0', version = version + 1 WHERE session_id = $1`, [sessionId]);
    expectCorrupt(await failureOf(worker.pinMessage(1)), /state "indices" of "\(pins\)"/);
    await worker.close().catch(() => {});
  });

  it("should report a table dropped under a live worker as corruption naming it, not as an unreachable server (regression)", async () => {
    const table = `corrupt_${randomUUID().slice(0, 8)}`;
    const { worker, names } = await liveSession(table);
    try {
      await admin(`DROP TABLE ${names.messages}`);
      expectCorrupt(
        await failureOf(worker.addMessage({ role: "user", content: "lost?" })),
        /ctxkit_test\.corrupt_[0-9a-f]+_messages.*changed outside ctxkit/,
      );
      await worker.close().catch(() => {});
    } finally {
      for (const each of [names.messages, names.state, names.sessions]) await admin(`DROP TABLE IF EXISTS ${each}`);
    }
  });
});
