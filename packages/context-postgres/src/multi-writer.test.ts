import { randomUUID } from "node:crypto";
import type { Message } from "@ctxkit/core";
import { afterAll, expect, it } from "vitest";
import { fixturesOf } from "@ctxkit/test-support/fixture-process";
import { describeWithPostgres } from "../test/postgres-server.js";
import { createPostgresContext } from "./create-postgres-context.js";

const { startFixture, removeFixtureBundles } = fixturesOf(new URL("../", import.meta.url), ["zod", "pg"]);
afterAll(removeFixtureBundles);

const SCHEMA = "ctxkit_test";
const contents = (messages: readonly Message[]) => messages.map((message) => message.content as string);

describeWithPostgres("many workers on one session", (connectionString) => {
  const open = (sessionId: string) => createPostgresContext({ connectionString, schema: SCHEMA, sessionId, tokenizer: "estimate" });

  it("should keep every acknowledged append of 4 concurrent processes exactly once, each writer's in its order", async () => {
    const sessionId = randomUUID();
    const writers = ["a", "b", "c", "d"];
    const children = await Promise.all(
      writers.map((writer) => startFixture("append-worker", [connectionString, SCHEMA, sessionId, writer, "25"])),
    );
    for (const child of children) expect((await child.exited).code).toBe(0);
    const reader = await open(sessionId);
    const stored = contents(await reader.getMessages());
    await reader.close();
    expect(stored).toHaveLength(100);
    expect(new Set(stored).size).toBe(100);
    for (const writer of writers) {
      expect(stored.filter((content) => content.startsWith(`${writer}:`))).toEqual(
        Array.from({ length: 25 }, (_, index) => `${writer}:${index}`),
      );
    }
  });

  it("should lose nothing a killed worker acknowledged (SIGKILL mid-append)", async () => {
    const sessionId = randomUUID();
    const child = await startFixture("append-worker", [connectionString, SCHEMA, sessionId, "k", "100000"]);
    await child.waitForLine((line) => line === "ack 30");
    child.child.kill("SIGKILL");
    await child.exited;
    const acknowledged = child.lines.filter((line) => line.startsWith("ack ")).length;
    const reader = await open(sessionId);
    const stored = contents(await reader.getMessages());
    await reader.close();
    expect(stored.length).toBeGreaterThanOrEqual(acknowledged);
    expect(stored).toEqual(Array.from({ length: stored.length }, (_, index) => `k:${index}`));
  });

  it("should give every worker the one shared history, each message once, while others append during its reads (regression)", async () => {
    const sessionId = randomUUID();
    const workers = await Promise.all(Array.from({ length: 8 }, () => open(sessionId)));
    await Promise.all(
      workers.map(async (worker, index) => {
        for (let turn = 0; turn < 15; turn += 1) {
          await worker.addMessage({ role: "user", content: `${index}:${turn}` });
          await worker.getMessagesForRequest({ tokenBudget: 100_000 });
        }
      }),
    );
    const reader = await open(sessionId);
    const stored = contents(await reader.getMessages());
    expect(stored).toHaveLength(120);
    for (const worker of workers) expect(contents(await worker.getMessages())).toEqual(stored);
    await Promise.all([reader, ...workers].map((manager) => manager.close()));
  });

  it("should show each worker the others' messages at its next request, and agree on one order", async () => {
    const sessionId = randomUUID();
    const [first, second] = [await open(sessionId), await open(sessionId)];
    await first.addMessage({ role: "user", content: "from first" });
    await second.addMessage({ role: "assistant", content: "from second" });
    await first.addMessage({ role: "user", content: "first again" });
    const views = [await first.getMessagesForRequest({ tokenBudget: 10_000 }), await second.getMessagesForRequest({ tokenBudget: 10_000 })];
    expect(contents(views[0]!)).toEqual(["from first", "from second", "first again"]);
    expect(views[1]).toEqual(views[0]);
    await second.clear();
    expect(await first.getMessages()).toEqual([]);
    await Promise.all([first.close(), second.close()]);
  });
});
