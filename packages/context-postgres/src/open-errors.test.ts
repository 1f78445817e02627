import { randomUUID } from "node:crypto";
import net from "node:net";
import { ContextConfigError } from "@ctxkit/core";
import pg from "pg";
import { expect, it } from "vitest";
import { describeWithPostgres, withClient } from "../test/postgres-server.js";
import { createPostgresContext } from "./create-postgres-context.js";
import { ContextStoreUnavailableError, PostgresStoreAccessError, PostgresStoreCorruptError } from "./errors.js";
import { PostgresMessageStore } from "./postgres-message-store.js";
import { tableNames } from "./schema-sql.js";

const schema = "ctxkit_test";

function withUrl(connectionString: string, change: (url: URL) => void): string {
  const url = new URL(connectionString);
  change(url);
  return url.toString();
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const openError = (connectionString: string, sessionId?: string) =>
  createPostgresContext({ connectionString, schema, tokenizer: "estimate", ...(sessionId === undefined ? {} : { sessionId }) }).then(
    async (manager) => {
      await manager.close();
      throw new Error("the session opened");
    },
    (error: unknown) => error,
  );

describeWithPostgres("typed errors at open", (connectionString) => {
  const admin = <T>(body: (client: pg.Client) => Promise<T>) => withClient(connectionString, body);

  it("should name the server and say to fix the role when the role does not exist", async () => {
    const error = await openError(withUrl(connectionString, (url) => void (url.username = "ctxkit_no_such_role")));
    expect(error).toBeInstanceOf(PostgresStoreAccessError);
    expect(error).toMatchObject({ code: "CONTEXT_STORE_ACCESS", reason: "role" });
    expect((error as Error).message).toMatch(/PostgreSQL at 127\.0\.0\.1:\d+\/ctxkit refused.*connectionString/);
  });

  it("should say to create the database or fix its name when it does not exist", async () => {
    const error = await openError(withUrl(connectionString, (url) => void (url.pathname = "/ctxkit_no_such_database")));
    expect(error).toMatchObject({ code: "CONTEXT_STORE_ACCESS", reason: "database" });
    expect((error as Error).message).toMatch(/ctxkit_no_such_database.*Create that database/);
  });

  it("should report a refused port as unavailable, naming host and port", async () => {
    const port = await freePort();
    const error = await openError(withUrl(connectionString, (url) => void (url.port = String(port))));
    expect(error).toBeInstanceOf(ContextStoreUnavailableError);
    expect((error as Error).message).toContain(`nothing accepts connections at 127.0.0.1:${port}/ctxkit (ECONNREFUSED)`);
  });

  it("should report too many clients as unavailable, saying to lower maxConnections or raise the server's limit", async () => {
    const role = `ctxkit_limited_${randomUUID().slice(0, 8)}`;
    await admin((client) => client.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 1`));
    const limitedUrl = withUrl(connectionString, (url) => void (url.username = role));
    const holder = new pg.Client({ connectionString: limitedUrl });
    try {
      await holder.connect();
      const error = await openError(limitedUrl);
      expect(error).toBeInstanceOf(ContextStoreUnavailableError);
      expect((error as Error).message).toMatch(/turned the connection away: too many connections.*Lower maxConnections/);
    } finally {
      await holder.end();
      await admin((client) => client.query(`DROP ROLE ${role}`));
    }
  });

  it("should refuse a session id holding a NUL or a lone surrogate with ContextConfigError, before reaching the server", async () => {
    for (const sessionId of ["a\u0000b", "chat-\uD800", "chat-\uDC00"]) {
      const error = await openError(connectionString, sessionId);
      expect(error).toBeInstanceOf(ContextConfigError);
      expect((error as ContextConfigError).issues[0]!.path).toBe("sessionId");
      expect(() => new PostgresMessageStore({ connectionString, sessionId })).toThrow(ContextConfigError);
    }
  });

  it("should report a state row corrupted by hand as corruption, naming its strategy and key", async () => {
    const sessionId = randomUUID();
    const manager = await createPostgresContext({ connectionString, schema, sessionId, tokenizer: "estimate" });
    await manager.addMessage({ role: "user", content: "kept" });
    await manager.pinMessage(0);
    await manager.close();
    await admin((client) =>
      client.query(`UPDATE ${tableNames(schema, "ctxkit").state} SET value = '[0,' WHERE session_id = $1`, [sessionId]),
    );
    const error = await openError(connectionString, sessionId);
    expect(error).toBeInstanceOf(PostgresStoreCorruptError);
    expect(error).toMatchObject({ code: "CONTEXT_STORE_CORRUPT", strategy: "(pins)", key: "indices", seq: undefined });
  });

  it("should refuse a second open of one store with a typed error, and report a session row deleted by hand as corruption", async () => {
    const sessionId = randomUUID();
    const store = new PostgresMessageStore({ connectionString, sessionId, schema });
    await store.open();
    await store.load();
    await expect(store.open()).rejects.toMatchObject({ code: "CONTEXT_ARGUMENT", operation: "PostgresMessageStore.open" });
    await admin((client) => client.query(`DELETE FROM ${tableNames(schema, "ctxkit").sessions} WHERE session_id = $1`, [sessionId]));
    await expect(store.append({ role: "user", content: "lost?" })).rejects.toMatchObject({
      code: "CONTEXT_STORE_CORRUPT",
      entry: "session row",
    });
    await store.close();
  });
});
