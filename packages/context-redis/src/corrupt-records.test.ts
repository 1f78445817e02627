import { randomUUID } from "node:crypto";
import { ContextError, createContextManager } from "@ctxkit/core";
import type { ContextEngine } from "@ctxkit/core/kit";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { describeWithRedis } from "../test/redis-server.js";
import { RedisMessageStore } from "./redis-message-store.js";

const keyPrefix = "ctxkit-test:";
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/**
 * Asserts a corruption report naming `what`, never a TypeError, a conflict or "unavailable". A failed
 * write closes the manager: its `ContextClosedError` carries the store's report as its cause.
 */
function expectCorrupt(caught: unknown, what: RegExp): void {
  const error = (caught as ContextError | undefined)?.code === "CONTEXT_CLOSED" ? (caught as Error).cause : caught;
  expect(error, "the corrupt session was read without an error").toBeInstanceOf(ContextError);
  expect((error as ContextError).code).toBe("CONTEXT_STORE_CORRUPT");
  expect((error as Error).message).toMatch(what);
}

describeWithRedis("records edited by hand", (url) => {
  const admin = new Redis(url);
  afterAll(() => admin.quit());
  const keys = (sessionId: string) => ({
    meta: `${keyPrefix}{${sessionId}}:meta`,
    messages: `${keyPrefix}{${sessionId}}:messages`,
    state: `${keyPrefix}{${sessionId}}:state`,
  });
  const openManager = async (sessionId: string): Promise<ContextEngine> =>
    createContextManager({ store: new RedisMessageStore({ url, sessionId, keyPrefix }), tokenizer: "estimate" });

  /** A session with two messages and a pin, and a live worker on it. */
  async function liveSession() {
    const sessionId = randomUUID();
    const worker = await openManager(sessionId);
    await worker.addMessage({ role: "user", content: "first" });
    await worker.addMessage({ role: "user", content: "second" });
    await worker.pinMessage(0);
    return { sessionId, worker, keys: keys(sessionId) };
  }

  const CASES = [
    {
      name: "a meta counter that is not a number (generation set to abc)",
      edit: (key: ReturnType<typeof keys>) => admin.hset(key.meta, "generation", "abc"),
      names: /field generation of ctxkit-test:\{[^}]+\}:meta: "abc" is not a whole number/,
    },
    {
      name: "a state value without the space after its version",
      edit: (key: ReturnType<typeof keys>) => admin.hset(key.state, "(pins)\u0000indices", "[0]"),
      names: /state \(pins\)\/indices \(field of ctxkit-test:\{[^}]+\}:state\)/,
    },
    {
      name: "the message list replaced by a string",
      edit: async (key: ReturnType<typeof keys>) => {
        await admin.del(key.messages);
        await admin.set(key.messages, "not a list");
      },
      names: /key ctxkit-test:\{[^}]+\}:messages: it is a string, not a list/,
    },
  ];

  for (const { name, edit, names } of CASES) {
    describe(name, () => {
      it("should refuse to open the session with CONTEXT_STORE_CORRUPT naming the key or field (regression)", async () => {
        const { sessionId, worker, keys: key } = await liveSession();
        await worker.close();
        await edit(key);
        expectCorrupt(await failureOf(openManager(sessionId)), names);
      });

      it("should stop a live worker's next call with CONTEXT_STORE_CORRUPT naming it (regression)", async () => {
        const { worker, keys: key } = await liveSession();
        await edit(key);
        // A pin reads (syncs), then writes the state: neither may end in a TypeError or ten conflicts.
        expectCorrupt(await failureOf(worker.pinMessage(1)), names);
        await worker.close().catch(() => {});
      });
    });
  }

  it("should report an append onto a key of another type as corruption, not as an unreachable server (regression)", async () => {
    const sessionId = randomUUID();
    const store = new RedisMessageStore({ url, sessionId, keyPrefix });
    await store.open();
    await store.load();
    await admin.set(keys(sessionId).messages, "not a list");
    expectCorrupt(await failureOf(store.append({ role: "user", content: "lost?" })), /key ctxkit-test:\{[^}]+\}:messages/);
    await store.close();
  });
});
