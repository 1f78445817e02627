// An append is one call of the store's procedure: two commits in one round trip, made by the migration when missing.
import { randomUUID } from "node:crypto";
import { ContextClosedError, type Message } from "@ctxkit/core";
import type pg from "pg";
import { expect, it } from "vitest";
import { describeWithPostgres, withClient } from "../test/postgres-server.js";
import { createPostgresContext } from "./create-postgres-context.js";
import { ContextStoreUnavailableError } from "./errors.js";
import { PostgresMessageStore } from "./postgres-message-store.js";
import { tableNames } from "./schema-sql.js";

// A schema of its own: the tests lock its flushes table and drop its procedure, which would hold up or break other tests.
const SCHEMA = "ctxkit_test_append_call";
const names = tableNames(SCHEMA, "ctxkit");
const contents = (messages: readonly Message[]) => messages.map((message) => message.content as string);
/** What a write settled with: undefined once acknowledged, else its error. */
const settled = (write: Promise<void>): Promise<unknown> =>
  write.then(
    () => undefined,
    (error: unknown) => error,
  );

/** The server process of the connection named `application` once it waits for a lock: an append held in its flush. */
async function waitingBackend(admin: pg.Client, application: string): Promise<number> {
  for (;;) {
    const result = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
      [application],
    );
    if (result.rows[0] !== undefined) return result.rows[0].pid;
  }
}

describeWithPostgres("an append's one call", (connectionString) => {
  const open = (sessionId: string, options: { application?: string; statementTimeoutMs?: number } = {}) =>
    createPostgresContext({
      connectionString:
        options.application === undefined ? connectionString : `${connectionString}?application_name=${options.application}`,
      schema: SCHEMA,
      sessionId,
      tokenizer: "estimate",
      ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
    });
  const admin = <T>(body: (client: pg.Client) => Promise<T>) => withClient(connectionString, body);
  /** Runs `body` while every flush in the schema waits: each append commits, then waits in its second transaction. */
  const withFlushesHeld = (body: (client: pg.Client) => Promise<void>) =>
    admin(async (client) => {
      await client.query("BEGIN");
      await client.query(`LOCK TABLE ${names.flushes} IN EXCLUSIVE MODE`);
      try {
        await body(client);
      } finally {
        await client.query("ROLLBACK");
      }
    });

  it("should keep an append whose connection is cut between its two commits in its place and unacknowledged, with another worker's later append after it", async () => {
    const sessionId = randomUUID();
    const [cut, kept] = [`ctxkit_cut_${randomUUID().slice(0, 8)}`, `ctxkit_kept_${randomUUID().slice(0, 8)}`];
    const first = await open(sessionId, { application: cut });
    const second = await open(sessionId, { application: kept });
    await first.addMessage({ role: "user", content: "first" });
    let writes: [Promise<unknown>, Promise<unknown>] | undefined;
    await withFlushesHeld(async (client) => {
      const cutWrite = settled(first.addMessage({ role: "assistant", content: "cut before its flush" }));
      const backend = await waitingBackend(client, cut);
      // The first append committed and let go of the session row: the other worker's append commits after it.
      const keptWrite = settled(second.addMessage({ role: "user", content: "appended after it" }));
      await waitingBackend(client, kept);
      const row = await client.query<{ last_seq: string }>(`SELECT last_seq FROM ${names.sessions} WHERE session_id = $1`, [sessionId]);
      expect(row.rows[0]?.last_seq).toBe("3");
      await client.query("SELECT pg_terminate_backend($1)", [backend]);
      writes = [cutWrite, keptWrite];
    });
    const [failure, acknowledged] = await Promise.all(writes!);
    expect(failure).toBeInstanceOf(ContextClosedError);
    expect((failure as ContextClosedError).cause).toBeInstanceOf(ContextStoreUnavailableError);
    expect(acknowledged).toBeUndefined();
    await first.close();
    const whole = ["first", "cut before its flush", "appended after it"];
    expect(contents(await second.getMessages())).toEqual(whole);
    const reader = await open(sessionId);
    expect(contents(await reader.getMessages())).toEqual(whole);
    await reader.addMessage({ role: "assistant", content: "next" });
    expect(contents(await second.getMessagesForRequest({ tokenBudget: 10_000 }))).toEqual([...whole, "next"]);
    await Promise.all([second.close(), reader.close()]);
  });

  it("should report an append whose flush fails after its commit (a statement timeout) as failed, and keep it in its place", async () => {
    const sessionId = randomUUID();
    const application = `ctxkit_timeout_${randomUUID().slice(0, 8)}`;
    const writer = await open(sessionId, { application, statementTimeoutMs: 1_000 });
    await writer.addMessage({ role: "user", content: "first" });
    let failure: unknown;
    await withFlushesHeld(async (client) => {
      const write = settled(writer.addMessage({ role: "assistant", content: "committed, never flushed by its call" }));
      await waitingBackend(client, application);
      failure = await write;
    });
    expect(failure).toBeInstanceOf(ContextClosedError);
    const cause = (failure as ContextClosedError).cause;
    expect(cause).toBeInstanceOf(ContextStoreUnavailableError);
    expect((cause as Error).message).toContain("statementTimeoutMs (1000 ms)");
    await writer.close();
    const reader = await open(sessionId);
    expect(contents(await reader.getMessages())).toEqual(["first", "committed, never flushed by its call"]);
    await reader.addMessage({ role: "user", content: "next" });
    expect(contents(await reader.getMessages())).toEqual(["first", "committed, never flushed by its call", "next"]);
    await reader.close();
  });

  it("should give a database made before the procedure (and before the flushes table and the time column) the procedure at open, and keep it at later opens", async () => {
    const sessionId = randomUUID();
    const store = new PostgresMessageStore({ connectionString, schema: SCHEMA, sessionId });
    await store.open();
    await store.load();
    await store.append({ role: "user", content: "from the old store" });
    await store.close();
    const procedure = () =>
      admin(async (client) => {
        const result = await client.query<{ oid: number | null }>("SELECT to_regprocedure($1)::oid AS oid", [
          `${names.appendProcedure}(text, text[], bigint)`,
        ]);
        return result.rows[0]!.oid;
      });
    await admin(async (client) => {
      await client.query(`DROP PROCEDURE ${names.appendProcedure}`);
      await client.query(`DROP TABLE ${names.flushes}`);
      await client.query(`ALTER TABLE ${names.sessions} DROP COLUMN last_added_at`);
    });
    expect(await procedure()).toBeNull();
    const upgraded = await open(sessionId);
    const made = await procedure();
    expect(made).not.toBeNull();
    await upgraded.addMessage({ role: "assistant", content: "through the procedure" });
    const later = await open(sessionId);
    expect(await procedure()).toBe(made);
    expect(contents(await later.getMessages())).toEqual(["from the old store", "through the procedure"]);
    await Promise.all([upgraded.close(), later.close()]);
  });

  it("should store every body byte for byte through the call's array, alone or several in one call", async () => {
    const sessionId = randomUUID();
    const hostile = [
      '"quoted", {braced}, (parenthesized) and NULL',
      'back\\slash\\\\ and \\" and \\u0000 spelled out',
      "a NUL \u0000 and a line\nbreak, a tab\t, a quote ' and '' and $$ and $append$",
      "'); DROP TABLE ctxkit_messages; --",
      `${'"\\'.repeat(150_000)}東京 👩‍💻`,
      "",
    ];
    const messages: Message[] = hostile.map((content, index) => ({ role: index % 2 === 0 ? "user" : "assistant", content }));
    const store = new PostgresMessageStore({ connectionString, schema: SCHEMA, sessionId });
    await store.open();
    await store.load();
    await store.append(messages[0]!);
    // Called while the first is still running, the others share the next call.
    await Promise.all(messages.slice(1).map((message) => store.append(message)));
    await store.close();
    const stored = await admin((client) =>
      client.query<{ body: string }>(`SELECT body FROM ${names.messages} WHERE session_id = $1 ORDER BY seq`, [sessionId]),
    );
    expect(stored.rows.map((row) => row.body)).toEqual(messages.map((message) => JSON.stringify(message)));
    const reader = await open(sessionId);
    expect(await reader.getMessages()).toEqual(messages);
    await reader.close();
  });
});
