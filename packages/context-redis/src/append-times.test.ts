// The session's meta hash records when the newest message was appended, in the append's own script, for a resumed session's first request.
import { randomUUID } from "node:crypto";
import { createContextManager } from "@ctxkit/core";
import { sampleTurn, systemMessage, userMessage } from "@ctxkit/core/testing";
import { Redis } from "ioredis";
import { expect, it } from "vitest";
import { describeWithRedis } from "../test/redis-server.js";
import { RedisMessageStore } from "./redis-message-store.js";

const keyPrefix = "ctxkit-test:";
const BUDGET = 20_000;

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

  it("should compact a resumed session's view past half its threshold on its first request after a pause longer than the cache lives", async () => {
    const sessionId = randomUUID();
    const earlier = await createContextManager({ store: storeFor(sessionId), tokenizer: "estimate" });
    const turns = Array.from({ length: 24 }, (_, turn) => sampleTurn(turn, 2_000)).flat();
    await earlier.setMessages([systemMessage("be brief"), ...turns]);
    await earlier.close();
    await admin((client) => client.hset(meta(sessionId), "lastAddedAt", String(Date.now() - 600_000)));
    // A fresh worker for the next turn: its own append comes back through sync, and is not taken for the session's last activity.
    const resumed = await createContextManager({ store: storeFor(sessionId), tokenizer: "estimate" });
    await resumed.addMessage(userMessage("and now?"));
    await resumed.getMessagesForRequest({ tokenBudget: BUDGET });
    const [receipt] = await resumed.listCompactions();
    await resumed.close();
    expect(receipt?.decision).toMatchObject({ trigger: "cache-expired", isCacheExpired: true });
  });
});
