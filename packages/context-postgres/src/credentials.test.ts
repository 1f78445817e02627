import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPasswordPostgresServer, type PasswordPostgresServer } from "../test/password-postgres-server.js";
import { describeWithPostgres } from "../test/postgres-server.js";
import { PostgresMessageStore } from "./postgres-message-store.js";

const secret = `pw-${randomUUID()}`;
const schema = "ctxkit_test";

/** Everything a caller could print of `error`: its message, its cause chain, and util.inspect of it. */
function printed(error: unknown): string {
  const parts: string[] = [inspect(error, { depth: 20, showHidden: true })];
  for (let link = error; link instanceof Error; link = link.cause) parts.push(link.message, String(link.stack));
  return parts.join("\n");
}

const openFailure = async (connectionString: string) => {
  const store = new PostgresMessageStore({ connectionString, sessionId: randomUUID(), schema, connectTimeoutMs: 2_000 });
  const error = await store.open().then(
    () => store.load().then(() => undefined),
    (caught: unknown) => caught,
  );
  await store.close();
  return error;
};

describeWithPostgres("a password never reaches an error", () => {
  let server: PasswordPostgresServer;
  beforeAll(async () => {
    server = await startPasswordPostgresServer(secret);
  }, 60_000);
  afterAll(() => server?.stop());

  const withUrl = (change: (url: URL) => void) => {
    const url = new URL(server.url);
    change(url);
    return url.toString();
  };

  it("should refuse a wrong password with CONTEXT_STORE_ACCESS, and print no part of it", async () => {
    const wrong = `${secret}-wrong`;
    const error = await openFailure(withUrl((url) => void (url.password = wrong)));
    expect(error).toMatchObject({ code: "CONTEXT_STORE_ACCESS", reason: "role" });
    expect(printed(error)).toContain("28P01");
    expect(printed(error)).not.toContain(wrong);
  });

  it("should report a missing database, a missing role and a refused port without the password", async () => {
    const refusedPort = server.port === 1 ? 2 : 1;
    const cases = [
      withUrl((url) => void (url.pathname = "/no_such_database")),
      withUrl((url) => void (url.username = "no_such_role")),
      withUrl((url) => void (url.port = String(refusedPort))),
      // A password given as a query parameter and as a keyword string is a secret as well.
      `postgres://ctxkit@127.0.0.1:${refusedPort}/postgres?password=${encodeURIComponent(secret)}`,
      `host=127.0.0.1 port=${refusedPort} user=ctxkit dbname=postgres password=${secret}`,
    ];
    for (const connectionString of cases) {
      const error = await openFailure(connectionString);
      expect(error, connectionString.replace(secret, "…")).toMatchObject({ name: expect.stringMatching(/Error$/) });
      expect(printed(error)).not.toContain(secret);
    }
  });

  it("should open and work with the right password", async () => {
    const store = new PostgresMessageStore({ connectionString: server.url, sessionId: randomUUID(), schema });
    await store.open();
    await store.load();
    await store.append({ role: "user", content: "hello" });
    await store.close();
  });
});
