import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startPasswordRedisServer, type PasswordRedisServer } from "../test/password-redis-server.js";
import { describeWithRedis } from "../test/redis-server.js";
import { RedisMessageStore } from "./redis-message-store.js";

const secret = `pw-${randomUUID()}`;
const keyPrefix = "ctxkit-test:";

/** Everything a caller could print of `error`: its message, its cause chain, and util.inspect of it. */
function printed(error: unknown): string {
  const parts: string[] = [inspect(error, { depth: 20, showHidden: true })];
  for (let link = error; link instanceof Error; link = link.cause) parts.push(link.message, String(link.stack));
  return parts.join("\n");
}

const openFailure = async (store: RedisMessageStore) => {
  const error = await store.open().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  await store.close();
  return error;
};

describeWithRedis("a password never reaches an error", () => {
  let server: PasswordRedisServer;
  beforeAll(async () => {
    server = await startPasswordRedisServer(secret);
  });
  afterAll(() => server?.stop());

  it("should report a wrong user as unavailable without the password in its message, cause or inspect output (regression)", async () => {
    const url = `redis://no-such-user:${encodeURIComponent(secret)}@127.0.0.1:${server.port}`;
    const error = await openFailure(new RedisMessageStore({ url, sessionId: randomUUID(), keyPrefix }));
    expect(error).toMatchObject({ code: "CONTEXT_STORE_UNAVAILABLE" });
    // The driver's reason stays: what the server said, and its code.
    expect(printed(error)).toContain("WRONGPASS");
    expect(printed(error)).not.toContain(secret);
  });

  it("should report a wrong password given to an injected client without that password anywhere (regression)", async () => {
    const wrong = `${secret}-wrong`;
    const client = new Redis({ host: "127.0.0.1", port: server.port, password: wrong, lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on("error", () => {});
    const error = await openFailure(new RedisMessageStore({ client, sessionId: randomUUID(), keyPrefix }));
    client.disconnect();
    expect(error).toMatchObject({ code: "CONTEXT_STORE_UNAVAILABLE" });
    expect(printed(error)).not.toContain(wrong);
  });

  it("should open and work with the right password", async () => {
    const store = new RedisMessageStore({ url: `redis://:${secret}@127.0.0.1:${server.port}`, sessionId: randomUUID(), keyPrefix });
    await store.open();
    await store.load();
    await store.append({ role: "user", content: "hello" });
    await store.close();
  });
});
