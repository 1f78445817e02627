import { randomUUID } from "node:crypto";
import type { Message } from "@ctxkit/core";
import { afterAll, expect, it } from "vitest";
import { fixturesOf } from "@ctxkit/test-support/fixture-process";
import { describeWithRedis } from "../test/redis-server.js";
import { createRedisContext } from "./create-redis-context.js";

const { startFixture, removeFixtureBundles } = fixturesOf(new URL("../", import.meta.url), ["zod", "ioredis", "pg"]);
afterAll(removeFixtureBundles);

const KEY_PREFIX = "ctxkit-test:";
const contents = (messages: readonly Message[]) => messages.map((message) => message.content as string);

describeWithRedis("many workers on one session", (url) => {
  const open = (sessionId: string) => createRedisContext({ url, keyPrefix: KEY_PREFIX, sessionId, tokenizer: "estimate" });

  it("should keep every acknowledged append of 4 concurrent processes exactly once, each writer's in its order", async () => {
    const sessionId = randomUUID();
    const writers = ["a", "b", "c", "d"];
    const children = await Promise.all(writers.map((writer) => startFixture("append-worker", [url, KEY_PREFIX, sessionId, writer, "25"])));
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

  it("should keep, once each and in order, everything 3 processes SIGKILLed mid-run had acknowledged", async () => {
    const sessionId = randomUUID();
    const writers = ["x", "y", "z"];
    const children = await Promise.all(
      writers.map((writer) => startFixture("append-worker", [url, KEY_PREFIX, sessionId, writer, "100000"])),
    );
    // Each is killed at a different point of its run, while the others go on appending.
    for (const [index, child] of children.entries()) {
      await child.waitForLine((line) => line === `ack ${20 + 15 * index}`);
      child.child.kill("SIGKILL");
    }
    await Promise.all(children.map((child) => child.exited));
    const reader = await open(sessionId);
    const stored = contents(await reader.getMessages());
    await reader.close();
    expect(new Set(stored).size).toBe(stored.length);
    for (const [index, writer] of writers.entries()) {
      const acknowledged = children[index]!.lines.filter((line) => line.startsWith("ack ")).length;
      const mine = stored.filter((content) => content.startsWith(`${writer}:`));
      // Every acknowledged one, and at most the one in flight at the kill besides, in the writer's order.
      expect(mine.length).toBeGreaterThanOrEqual(acknowledged);
      expect(mine.length).toBeLessThanOrEqual(acknowledged + 1);
      expect(mine).toEqual(Array.from({ length: mine.length }, (_, turn) => `${writer}:${turn}`));
    }
  });

  it("should give every worker the one shared history, each message once, while others append during its reads", async () => {
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
    expect(new Set(stored).size).toBe(120);
    for (const worker of workers) expect(contents(await worker.getMessages())).toEqual(stored);
    await Promise.all([reader, ...workers].map((manager) => manager.close()));
  });

  it("should show each worker the others' messages at its next request, agree on one order, and reset on another's clear", async () => {
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
    await second.setMessages([{ role: "user", content: "replaced" }]);
    await first.addMessage({ role: "assistant", content: "after the replace" });
    expect(contents(await second.getMessages())).toEqual(["replaced", "after the replace"]);
    await Promise.all([first.close(), second.close()]);
  });
});
