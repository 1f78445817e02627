import { randomUUID } from "node:crypto";
import net from "node:net";
import { type CorruptRecordKind, describeMessageStore } from "@ctxkit/conformance/vitest";
import { afterAll, beforeAll } from "vitest";
import { startPasswordPostgresServer, type PasswordPostgresServer } from "../test/password-postgres-server.js";
import { describeWithPostgres, withClient } from "../test/postgres-server.js";
import { startTcpProxy } from "@ctxkit/test-support/tcp-proxy";
import { PostgresMessageStore } from "./postgres-message-store.js";
import { tableNames } from "./schema-sql.js";

const schema = "ctxkit_test";
const secret = `pw-${randomUUID()}`;

/** A loopback port nothing listens on: the OS hands it out, and it is closed again at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeWithPostgres("PostgreSQL store", (connectionString) => {
  // A server of this file's own that asks for a password, for the credential check (the shared one trusts every connection).
  let passwordServer: PasswordPostgresServer;
  beforeAll(async () => {
    passwordServer = await startPasswordPostgresServer(secret);
  }, 60_000);
  afterAll(() => passwordServer?.stop());
  const names = tableNames(schema, "ctxkit");
  /** Each kind of row edited by hand; a table is one type of thing, so there is no key of another type. */
  const damage = (serverUrl: string, sessionId: string, kind: CorruptRecordKind) =>
    withClient(serverUrl, async (client) => {
      if (kind === "message")
        await client.query(`UPDATE ${names.messages} SET body = '{"role":' WHERE session_id = $1 AND seq = 2`, [sessionId]);
      if (kind === "counters")
        await client.query(`UPDATE ${names.sessions} SET last_seq = last_seq + 2 WHERE session_id = $1`, [sessionId]);
      if (kind === "state") await client.query(`UPDATE ${names.state} SET version = 0 WHERE session_id = $1`, [sessionId]);
    });

  describeMessageStore("PostgresMessageStore", (sessionId) => new PostgresMessageStore({ connectionString, sessionId, schema }), {
    // Through a loopback proxy the check freezes, with bounds short enough for a test.
    // The statement bound above the close bound, as their defaults are (30 s, 10 s): close() must not wait it out.
    frozenNetwork: async (sessionId) => {
      const proxy = await startTcpProxy(connectionString);
      const store = new PostgresMessageStore({
        connectionString: proxy.url,
        sessionId,
        schema,
        statementTimeoutMs: 3_000,
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
    // Each kind of row edited by hand; a table is one type of thing, so there is no key of another type.
    corruptRecords: {
      kinds: ["message", "counters", "state"],
      corrupt: (sessionId, kind) => damage(connectionString, sessionId, kind),
    },
    // A wrong role, a closed port, and a frozen connection, each given the password in its connection string.
    credentials: {
      secret,
      badAuth: async (sessionId) => ({
        store: new PostgresMessageStore({
          connectionString: `postgres://no_such_role:${secret}@127.0.0.1:${passwordServer.port}/postgres`,
          sessionId,
          schema,
        }),
        dispose: async () => {},
      }),
      unreachable: async (sessionId) => ({
        store: new PostgresMessageStore({
          connectionString: `postgres://ctxkit:${secret}@127.0.0.1:${await closedPort()}/postgres`,
          sessionId,
          schema,
        }),
        dispose: async () => {},
      }),
      frozen: async (sessionId) => {
        const proxy = await startTcpProxy(passwordServer.url);
        const store = new PostgresMessageStore({
          connectionString: proxy.url,
          sessionId,
          schema,
          statementTimeoutMs: 500,
          closeTimeoutMs: 500,
        });
        return { store, freeze: proxy.freeze, dispose: proxy.close };
      },
      // Sessions given the password, on the server that asks for it, damaged by hand.
      corrupt: {
        kinds: ["message", "counters", "state"],
        store: (sessionId) => new PostgresMessageStore({ connectionString: passwordServer.url, sessionId, schema }),
        damage: (sessionId, kind) => damage(passwordServer.url, sessionId, kind),
      },
    },
    // closeTimeoutMs of the frozenNetwork stores above, and the error close() then rejects with.
    closeBound: { timeoutMs: 500, errorCode: "CONTEXT_CLOSE_TIMEOUT" },
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
