import { randomUUID } from "node:crypto";
import { ContextStateConflictError } from "@ctxkit/core";
import { expect, it } from "vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import { createPostgresContext } from "./create-postgres-context.js";
import { PostgresMessageStore } from "./postgres-message-store.js";

const schema = "ctxkit_test";
const indices = (from: number, count: number) => Array.from({ length: count }, (_, offset) => from + offset);

describeWithPostgres("strategy state written by several workers at once", (connectionString) => {
  const open = (sessionId: string) => createPostgresContext({ connectionString, schema, sessionId, tokenizer: "estimate" });

  it("should keep every pin of two workers pinning different messages at once, as both see afterwards (regression)", async () => {
    const sessionId = randomUUID();
    const [first, second] = [await open(sessionId), await open(sessionId)];
    for (let index = 0; index < 30; index += 1) await first.addMessage({ role: "user", content: `message ${index}` });
    await second.getMessages();
    const pinAll = async (manager: typeof first, targets: number[]) => {
      for (const target of targets) expect(await manager.pinMessage(target)).toBe(target);
    };
    await Promise.all([pinAll(first, indices(0, 15)), pinAll(second, indices(15, 15))]);
    expect(await first.pinnedMessages()).toEqual(indices(0, 30));
    expect(await second.pinnedMessages()).toEqual(indices(0, 30));
    await Promise.all([first.close(), second.close()]);
    const reader = await open(sessionId);
    expect(await reader.pinnedMessages()).toEqual(indices(0, 30));
    await reader.close();
  }, 60_000);

  it("should keep every pin when each worker also pins many messages at once (regression)", async () => {
    const sessionId = randomUUID();
    const [first, second] = [await open(sessionId), await open(sessionId)];
    for (let index = 0; index < 30; index += 1) await first.addMessage({ role: "user", content: `message ${index}` });
    const pinAtOnce = (manager: typeof first, targets: number[]) => Promise.all(targets.map((target) => manager.pinMessage(target)));
    expect(await Promise.all([pinAtOnce(first, indices(0, 15)), pinAtOnce(second, indices(15, 15))])).toEqual([
      indices(0, 15),
      indices(15, 15),
    ]);
    expect(await first.pinnedMessages()).toEqual(indices(0, 30));
    expect(await second.pinnedMessages()).toEqual(indices(0, 30));
    await Promise.all([first.close(), second.close()]);
  }, 60_000);

  it("should reject a state write over a key another store changed since it synced, write nothing, and accept it after a sync", async () => {
    const sessionId = randomUUID();
    const stores = [
      new PostgresMessageStore({ connectionString, sessionId, schema }),
      new PostgresMessageStore({ connectionString, sessionId, schema }),
    ];
    for (const store of stores) {
      await store.open();
      await store.load();
    }
    const [first, second] = stores as [PostgresMessageStore, PostgresMessageStore];
    await first.writeState({ strategy: "summary", key: "checkpoint", value: "first" });
    const conflict = await second.writeState({ strategy: "summary", key: "checkpoint", value: "second" }).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(ContextStateConflictError);
    expect(conflict).toMatchObject({ code: "CONTEXT_STATE_CONFLICT", strategy: "summary", key: "checkpoint" });
    const update = await second.sync();
    expect(update.kind === "appended" && update.state?.get("summary")?.get("checkpoint")).toBe("first");
    await second.writeState({ strategy: "summary", key: "checkpoint", value: "second" });
    await second.append({ role: "user", content: "still writable" });
    await Promise.all(stores.map((store) => store.close()));
  });
});
