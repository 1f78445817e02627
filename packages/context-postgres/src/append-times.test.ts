// The session row records when the newest message was appended, in the append's own statement, for a resumed session's first request.
import { randomUUID } from "node:crypto";
import { createContextManager } from "@ctxkit/core";
import { sampleTurn, systemMessage, userMessage } from "@ctxkit/core/testing";
import pg from "pg";
import { expect, it } from "vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import { PostgresMessageStore } from "./postgres-message-store.js";

// A schema of its own: one test drops the column, as a table made before it had none.
const SCHEMA = "ctxkit_test_append_times";
const BUDGET = 20_000;

describeWithPostgres("append times", (connectionString) => {
  const storeFor = (sessionId: string) => new PostgresMessageStore({ connectionString, schema: SCHEMA, sessionId });
  const opened = async (sessionId: string) => {
    const store = storeFor(sessionId);
    await store.open();
    return { store, session: await store.load() };
  };
  const admin = async <T>(body: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return await body(client);
    } finally {
      await client.end();
    }
  };

  it("should report when the newest message was appended, to another worker's sync and after a reopen, and none after a replace", async () => {
    const sessionId = randomUUID();
    const writer = await opened(sessionId);
    const reader = await opened(sessionId);
    expect(writer.session.lastAddedAt).toBeUndefined();
    const before = Date.now();
    await writer.store.append(userMessage("timed"));
    const after = Date.now();
    const update = await reader.store.sync();
    expect(update).toMatchObject({ kind: "appended" });
    const synced = update.kind === "appended" ? update.lastAddedAt : undefined;
    expect(synced).toBeGreaterThanOrEqual(before);
    expect(synced).toBeLessThanOrEqual(after);
    await Promise.all([writer.store.close(), reader.store.close()]);
    const reopened = await opened(sessionId);
    expect(reopened.session.lastAddedAt).toBe(synced);
    await reopened.store.replace([userMessage("set")], new Map());
    await reopened.store.close();
    const replaced = await opened(sessionId);
    expect(replaced.session.lastAddedAt).toBeUndefined();
    await replaced.store.close();
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

  it("should compact a resumed session's view past half its threshold on its first request after a pause longer than the cache lives", async () => {
    const sessionId = randomUUID();
    const earlier = await createContextManager({ store: storeFor(sessionId), tokenizer: "estimate" });
    const turns = Array.from({ length: 24 }, (_, turn) => sampleTurn(turn, 2_000)).flat();
    await earlier.setMessages([systemMessage("be brief"), ...turns]);
    await earlier.close();
    await admin((client) =>
      client.query(`UPDATE "${SCHEMA}"."ctxkit_sessions" SET last_added_at = $2 WHERE session_id = $1`, [sessionId, Date.now() - 600_000]),
    );
    // A fresh worker for the next turn: its own append comes back through sync, and is not taken for the session's last activity.
    const resumed = await createContextManager({ store: storeFor(sessionId), tokenizer: "estimate" });
    await resumed.addMessage(userMessage("and now?"));
    await resumed.getMessagesForRequest({ tokenBudget: BUDGET });
    const [receipt] = await resumed.listCompactions();
    await resumed.close();
    expect(receipt?.decision).toMatchObject({ trigger: "cache-expired", isCacheExpired: true });
  });
});
