import { createServer } from "node:net";
import { randomUUID } from "node:crypto";
import { type CorruptRecordKind, describeMessageStore } from "@ctxkit/conformance/vitest";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect } from "vitest";
import { startPasswordRedisServer, type PasswordRedisServer } from "../test/password-redis-server.js";
import { describeWithRedis } from "../test/redis-server.js";
import { startTcpProxy } from "@ctxkit/test-support/tcp-proxy";
import { ContextStoreUnavailableError } from "./errors.js";
import { RedisMessageStore } from "./redis-message-store.js";

const keyPrefix = "ctxkit-test:";
const secret = `pw-${randomUUID()}`;

/** A loopback port nothing listens on: the OS hands it out, and it is closed again at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs `body` on a connection of the test's own, apart from any store's. */
async function withClient(url: string, body: (client: Redis) => Promise<unknown>): Promise<void> {
  const client = new Redis(url);
  try {
    await body(client);
  } finally {
    await client.quit();
  }
}

describeWithRedis("Redis store", (url) => {
  // A server of this file's own that asks for a password, for the credential check.
  let passwordServer: PasswordRedisServer;
  beforeAll(async () => {
    passwordServer = await startPasswordRedisServer(secret);
  });
  afterAll(() => passwordServer?.stop());
  const keys = (sessionId: string) => ({
    meta: `${keyPrefix}{${sessionId}}:meta`,
    messages: `${keyPrefix}{${sessionId}}:messages`,
    state: `${keyPrefix}{${sessionId}}:state`,
  });
  /** Each kind of record edited by hand, as redis-cli in the wrong hands would leave it. */
  const damage = (serverUrl: string, sessionId: string, kind: CorruptRecordKind) =>
    withClient(serverUrl, async (client) => {
      const key = keys(sessionId);
      if (kind === "message") await client.lset(key.messages, 1, '{"role":');
      if (kind === "counters") await client.hset(key.meta, "generation", "abc");
      if (kind === "state") await client.hset(key.state, "summary\u0000checkpoint", "[0]");
      if (kind === "key-type") await client.del(key.messages).then(() => client.set(key.messages, "not a list"));
    });

  describeMessageStore("RedisMessageStore", (sessionId) => new RedisMessageStore({ url, sessionId, keyPrefix }), {
    // Through a loopback proxy the check freezes, with bounds short enough for a test.
    frozenNetwork: async (sessionId) => {
      const proxy = await startTcpProxy(url);
      const store = new RedisMessageStore({ url: proxy.url, sessionId, keyPrefix, commandTimeoutMs: 500 });
      return { store, freeze: proxy.freeze, dispose: proxy.close };
    },
    silentServer: async (sessionId) => {
      const proxy = await startTcpProxy(url, "silent");
      return { store: new RedisMessageStore({ url: proxy.url, sessionId, keyPrefix, connectTimeoutMs: 500 }), dispose: proxy.close };
    },
    // A state value that is no longer JSON, as a hand-made HSET gone wrong would leave it.
    corruptState: async (sessionId) => {
      const client = new Redis(url);
      await client.hset(`${keyPrefix}{${sessionId}}:state`, "summary\u0000checkpoint", '1 {"through":');
      await client.quit();
    },
    concurrentStateWriters: true,
    corruptRecords: {
      kinds: ["message", "counters", "state", "key-type"],
      corrupt: (sessionId, kind) => damage(url, sessionId, kind),
    },
    // A wrong user, a closed port, and a frozen connection, each given the password in its URL.
    credentials: {
      secret,
      badAuth: async (sessionId) => ({
        store: new RedisMessageStore({ url: `redis://no-such-user:${secret}@127.0.0.1:${passwordServer.port}`, sessionId, keyPrefix }),
        dispose: async () => {},
      }),
      unreachable: async (sessionId) => ({
        store: new RedisMessageStore({ url: `redis://:${secret}@127.0.0.1:${await closedPort()}`, sessionId, keyPrefix }),
        dispose: async () => {},
      }),
      frozen: async (sessionId) => {
        const proxy = await startTcpProxy(`redis://:${secret}@127.0.0.1:${passwordServer.port}`);
        const store = new RedisMessageStore({ url: proxy.url, sessionId, keyPrefix, commandTimeoutMs: 500 });
        return { store, freeze: proxy.freeze, dispose: proxy.close };
      },
      // Sessions given the password, on the server that asks for it, damaged by hand.
      corrupt: {
        kinds: ["message", "counters", "state", "key-type"],
        store: (sessionId) => new RedisMessageStore({ url: `redis://:${secret}@127.0.0.1:${passwordServer.port}`, sessionId, keyPrefix }),
        damage: (sessionId, kind) => damage(`redis://:${secret}@127.0.0.1:${passwordServer.port}`, sessionId, kind),
      },
    },
    // The README's bound: twice commandTimeoutMs (500 ms through the frozen proxy above).
    closeBound: { timeoutMs: 1_000 },
    // A message whose body is no longer JSON, as a hand-made LSET gone wrong would leave it.
    corrupt: async (sessionId) => {
      const client = new Redis(url);
      await client.lset(`${keyPrefix}{${sessionId}}:messages`, 1, '{"role":');
      await client.quit();
    },
    // The replace's connection goes through a proxy that cuts it part-way through the command (a few MB):
    // the server has the first part of it, never the rest.
    crashDuringReplace: async (sessionId, messages, state) => {
      const proxy = await startTcpProxy(url);
      const store = new RedisMessageStore({ url: proxy.url, sessionId, keyPrefix });
      await store.open();
      await store.load();
      const payload = messages.reduce((total, message) => total + JSON.stringify(message).length, 0);
      proxy.cutAfter(Math.floor(Math.random() * payload));
      const outcome = await store.replace(messages, state).then(
        () => "stored",
        (error: unknown) => error,
      );
      // The cut landed inside the command: the caller was told, with the typed error.
      expect(outcome).toBeInstanceOf(ContextStoreUnavailableError);
      await store.close();
      await proxy.close();
    },
  });
});
