import { describeMessageStore } from "@ctxkit/conformance/vitest";
import { Redis } from "ioredis";
import { expect } from "vitest";
import { describeWithRedis } from "../test/redis-server.js";
import { startTcpProxy } from "@ctxkit/test-support/tcp-proxy";
import { ContextStoreUnavailableError } from "./errors.js";
import { RedisMessageStore } from "./redis-message-store.js";

const keyPrefix = "ctxkit-test:";

describeWithRedis("Redis store", (url) => {
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
