import { randomUUID } from "node:crypto";
import { describeMessageStore } from "@ctxkit/conformance/vitest";
import pg from "pg";
import { describeWithPostgres } from "../test/postgres-server.js";
import { startTcpProxy } from "@ctxkit/test-support/tcp-proxy";
import { PostgresMessageStore } from "./postgres-message-store.js";
import { tableNames } from "./schema-sql.js";

const schema = "ctxkit_test";

/** Runs `body` on one plain connection, apart from any store's pool. */
async function withClient<T>(connectionString: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

describeWithPostgres("PostgreSQL store", (connectionString) => {
  describeMessageStore("PostgresMessageStore", (sessionId) => new PostgresMessageStore({ connectionString, sessionId, schema }), {
    // Through a loopback proxy the check freezes, with bounds short enough for a test.
    frozenNetwork: async (sessionId) => {
      const proxy = await startTcpProxy(connectionString);
      const store = new PostgresMessageStore({
        connectionString: proxy.url,
        sessionId,
        schema,
        statementTimeoutMs: 500,
        closeTimeoutMs: 500,
      });
      return { store, freeze: proxy.freeze, dispose: proxy.close };
    },
    silentServer: async (sessionId) => {
      const proxy = await startTcpProxy(connectionString, "silent");
      return {
        store: new PostgresMessageStore({ connectionString: proxy.url, sessionId, schema, connectTimeoutMs: 500 }),
        dispose: proxy.close,
      };
    },
    // A state value that is no longer JSON, as a manual UPDATE gone wrong would leave it.
    corruptState: (sessionId) =>
      withClient(connectionString, async (client) => {
        await client.query(`UPDATE ${tableNames(schema, "ctxkit").state} SET value = '{"through":' WHERE session_id = $1`, [sessionId]);
      }),
    concurrentStateWriters: true,
    // A row whose body is no longer JSON, as a manual UPDATE gone wrong would leave it.
    corrupt: (sessionId) =>
      withClient(connectionString, async (client) => {
        await client.query(`UPDATE ${tableNames(schema, "ctxkit").messages} SET body = '{"role":' WHERE session_id = $1 AND seq = 2`, [
          sessionId,
        ]);
      }),
    // The replace runs in its own transaction on a connection named for this test; the server terminates
    // that backend as soon as the transaction has written something.
    crashDuringReplace: async (sessionId, messages, state) => {
      const applicationName = `ctxkit-crash-${randomUUID().slice(0, 8)}`;
      const url = new URL(connectionString);
      url.searchParams.set("application_name", applicationName);
      const store = new PostgresMessageStore({ connectionString: url.toString(), sessionId, schema, maxConnections: 1 });
      await store.open();
      await store.load();
      let settled = false;
      const replacing = store.replace(messages, state).then(
        () => (settled = true),
        () => (settled = true),
      );
      await withClient(connectionString, async (client) => {
        while (!settled) {
          const terminated = await client.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND backend_xid IS NOT NULL",
            [applicationName],
          );
          if ((terminated.rowCount ?? 0) > 0) break;
        }
      });
      await replacing;
      await store.close();
    },
  });
});
