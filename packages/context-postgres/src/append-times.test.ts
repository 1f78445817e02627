// The session row records when the newest message was appended, in the append's own statement, for a resumed session's first request.
import { randomUUID } from "node:crypto";
import { userMessage } from "@ctxkit/core/testing";
import { itRecordsAppendTimes } from "@ctxkit/test-support/shared-append-times";
import type pg from "pg";
import { expect, it } from "vitest";
import { describeWithPostgres, withClient } from "../test/postgres-server.js";
import { PostgresMessageStore } from "./postgres-message-store.js";

// A schema of its own: one test drops the column, as a table made before it had none.
const SCHEMA = "ctxkit_test_append_times";

describeWithPostgres("append times", (connectionString) => {
  const storeFor = (sessionId: string) => new PostgresMessageStore({ connectionString, schema: SCHEMA, sessionId });
  const opened = async (sessionId: string) => {
    const store = storeFor(sessionId);
    await store.open();
    return { store, session: await store.load() };
  };
  const admin = <T>(body: (client: pg.Client) => Promise<T>) => withClient(connectionString, body);

  itRecordsAppendTimes({
    storeFor,
    setLastAddedAt: (sessionId, time) =>
      admin((client) =>
        client.query(`UPDATE "${SCHEMA}"."ctxkit_sessions" SET last_added_at = $2 WHERE session_id = $1`, [sessionId, time]),
      ).then(() => undefined),
  });

  it("should add the column to a table made without it, whose sessions load with no time", async () => {
    const sessionId = randomUUID();
    const first = await opened(sessionId);
    await first.store.append(userMessage("before the column"));
    await first.store.close();
    await admin((client) => client.query(`ALTER TABLE "${SCHEMA}"."ctxkit_sessions" DROP COLUMN last_added_at`));
    const old = await opened(sessionId);
    expect(old.session.messages).toEqual([userMessage("before the column")]);
    expect(old.session.lastAddedAt).toBeUndefined();
    await old.store.append(userMessage("after"));
    await old.store.close();
    const later = await opened(sessionId);
    expect(later.session.lastAddedAt).toBeGreaterThan(0);
    await later.store.close();
  });
});
