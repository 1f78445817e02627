import { randomUUID } from "node:crypto";
import { ContextStateConflictError } from "@ctxkit/core";
import { expect, it } from "vitest";
import { describeWithRedis } from "../test/redis-server.js";
import { RedisMessageStore } from "./redis-message-store.js";

const keyPrefix = "ctxkit-test:";
const plain = (state: ReadonlyMap<string, ReadonlyMap<string, unknown>>) =>
  Object.fromEntries([...state].map(([strategy, values]) => [strategy, Object.fromEntries(values)]));

describeWithRedis("two writers of one state key", (url) => {
  async function openTwo() {
    const sessionId = randomUUID();
    const stores = [new RedisMessageStore({ url, sessionId, keyPrefix }), new RedisMessageStore({ url, sessionId, keyPrefix })] as const;
    for (const store of stores) {
      await store.open();
      await store.load();
    }
    return { sessionId, stores };
  }

  it("should refuse the second of two writes over the same seen version with ContextStateConflictError, and keep the first", async () => {
    const { sessionId, stores } = await openTwo();
    const [first, second] = stores;
    const outcomes = await Promise.allSettled([
      first.writeState({ strategy: "summary", key: "checkpoint", value: { by: "first" } }),
      second.writeState({ strategy: "summary", key: "checkpoint", value: { by: "second" } }),
    ]);
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(refused).toHaveLength(1);
    const error = (refused[0] as PromiseRejectedResult).reason as ContextStateConflictError;
    expect(error).toBeInstanceOf(ContextStateConflictError);
    expect(error).toMatchObject({ code: "CONTEXT_STATE_CONFLICT", strategy: "summary", key: "checkpoint" });
    const winner = outcomes[0]!.status === "fulfilled" ? "first" : "second";
    // Never a silent lost write: what is stored is the one write that was acknowledged.
    const reader = new RedisMessageStore({ url, sessionId, keyPrefix });
    await reader.open();
    expect(plain((await reader.load()).state)).toEqual({ summary: { checkpoint: { by: winner } } });
    await Promise.all([first.close(), second.close(), reader.close()]);
  });

  it("should let the refused writer apply once it has synced the other's value, and refuse a stale delete", async () => {
    const { stores } = await openTwo();
    const [first, second] = stores;
    await first.writeState({ strategy: "summary", key: "checkpoint", value: 1 });
    await expect(second.writeState({ strategy: "summary", key: "checkpoint", deleted: true })).rejects.toBeInstanceOf(
      ContextStateConflictError,
    );
    await expect(second.writeState({ strategy: "summary", key: "checkpoint", value: 2 })).rejects.toBeInstanceOf(ContextStateConflictError);
    // The refusal stopped nothing: after a sync, the same store writes over the value it now knows.
    const update = await second.sync();
    expect(update).toMatchObject({ kind: "appended", messages: [] });
    expect(update.kind === "appended" && plain(update.state!)).toEqual({ summary: { checkpoint: 1 } });
    await second.writeState({ strategy: "summary", key: "checkpoint", value: 2 });
    // And now the first one is the stale writer.
    await expect(first.writeState({ strategy: "summary", key: "checkpoint", value: 3 })).rejects.toBeInstanceOf(ContextStateConflictError);
    await first.append({ role: "user", content: "writes go on" });
    await Promise.all([first.close(), second.close()]);
  });

  it("should refuse a write over a key another writer deleted and wrote again (no reuse of a version)", async () => {
    const { stores } = await openTwo();
    const [first, second] = stores;
    await first.writeState({ strategy: "s", key: "k", value: "a" });
    await second.sync();
    await first.writeState({ strategy: "s", key: "k", deleted: true });
    await first.writeState({ strategy: "s", key: "k", value: "b" });
    await expect(second.writeState({ strategy: "s", key: "k", value: "c" })).rejects.toBeInstanceOf(ContextStateConflictError);
    await Promise.all([first.close(), second.close()]);
  });
});
