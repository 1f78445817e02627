// The session's meta hash records when the newest message was appended, in the append's own script, for a resumed session's first request.
import { randomUUID } from "node:crypto";
import { userMessage } from "@ctxkit/core/testing";
import { itRecordsAppendTimes } from "@ctxkit/test-support/shared-append-times";
import { Redis } from "ioredis";
import { expect, it } from "vitest";
import { describeWithRedis } from "../test/redis-server.js";
import { RedisMessageStore } from "./redis-message-store.js";

const keyPrefix = "ctxkit-test:";

describeWithRedis("append times", (url) => {
  const storeFor = (sessionId: string) => new RedisMessageStore({ url, sessionId, keyPrefix });
  const opened = async (sessionId: string) => {
    const store = storeFor(sessionId);
    await store.open();
    return { store, session: await store.load() };
  };
  const meta = (sessionId: string) => `${keyPrefix}{${sessionId}}:meta`;
  const admin = async <T>(body: (client: Redis) => Promise<T>): Promise<T> => {
    const client = new Redis(url);
    try {
      return await body(client);
    } finally {
      client.disconnect();
    }
  };

  itRecordsAppendTimes({
    storeFor,
    setLastAddedAt: (sessionId, time) => admin((client) => client.hset(meta(sessionId), "lastAddedAt", String(time))).then(() => undefined),
  });

  it("should load a session written without times as unknown, and report a time edited into something else as corrupt", async () => {
    const sessionId = randomUUID();
    await admin((client) => client.rpush(`${keyPrefix}{${sessionId}}:messages`, JSON.stringify(userMessage("from before"))));
    const old = await opened(sessionId);
    expect(old.session.messages).toEqual([userMessage("from before")]);
    expect(old.session.lastAddedAt).toBeUndefined();
    await old.store.close();
    await admin((client) => client.hset(meta(sessionId), "lastAddedAt", "yesterday"));
    const store = storeFor(sessionId);
    await store.open();
    await expect(store.load()).rejects.toMatchObject({ code: "CONTEXT_STORE_CORRUPT", message: expect.stringContaining("lastAddedAt") });
    await store.close();
  });
});
