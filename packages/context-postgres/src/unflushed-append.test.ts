import { randomUUID } from "node:crypto";
import { ContextClosedError, type Message } from "@ctxkit/core";
import pg from "pg";
import { expect, it } from "vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import { createPostgresContext } from "./create-postgres-context.js";
import { ContextStoreUnavailableError } from "./errors.js";

// A schema of its own: the test locks its flushes table, which would hold up every other test's appends.
const SCHEMA = "ctxkit_test_unflushed";
const contents = (messages: readonly Message[]) => messages.map((message) => message.content as string);

describeWithPostgres("an append committed but not yet flushed", (connectionString) => {
  const open = (sessionId: string, url = connectionString) =>
    createPostgresContext({ connectionString: url, schema: SCHEMA, sessionId, tokenizer: "estimate" });

  it("should release the session row before the flush, acknowledge only after it, and keep the history whole when the flush's connection is cut", async () => {
    const application = `ctxkit_unflushed_${randomUUID().slice(0, 8)}`;
    const sessionId = randomUUID();
    const writer = await open(sessionId, `${connectionString}?application_name=${application}`);
    await writer.addMessage({ role: "user", content: "first" });
    // Hold every flush in this schema: the next append commits, then waits in its flush.
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query("BEGIN");
    await admin.query(`LOCK TABLE "${SCHEMA}"."ctxkit_flushes" IN EXCLUSIVE MODE`);
    let isSettled = false;
    const write = writer
      .addMessage({ role: "assistant", content: "second" })
      .then(
        () => undefined,
        (error: unknown) => error,
      )
      .finally(() => {
        isSettled = true;
      });
    let waiting: number | undefined;
    while (waiting === undefined) {
      const result = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
        [application],
      );
      waiting = result.rows[0]?.pid;
    }
    // Committed, and the session row free for the next appender, while the caller still waits for the flush.
    const committed = await admin.query<{ last_seq: string }>(
      `SELECT last_seq FROM "${SCHEMA}"."ctxkit_sessions" WHERE session_id = $1 FOR UPDATE NOWAIT`,
      [sessionId],
    );
    expect(committed.rows[0]?.last_seq).toBe("2");
    expect(isSettled).toBe(false);
    await admin.query("SELECT pg_terminate_backend($1)", [waiting]);
    await admin.query("ROLLBACK");
    await admin.end();
    const failure = await write;
    expect(failure).toBeInstanceOf(ContextClosedError);
    expect((failure as ContextClosedError).cause).toBeInstanceOf(ContextStoreUnavailableError);
    await writer.close();
    // Never acknowledged, yet committed: every worker sees it in its place, and the next append follows it with no gap.
    const [second, third] = [await open(sessionId), await open(sessionId)];
    expect(contents(await second.getMessages())).toEqual(["first", "second"]);
    await second.addMessage({ role: "user", content: "third" });
    expect(contents(await third.getMessagesForRequest({ tokenBudget: 10_000 }))).toEqual(["first", "second", "third"]);
    expect(await second.getMessages()).toEqual(await third.getMessages());
    await Promise.all([second.close(), third.close()]);
  });
});
