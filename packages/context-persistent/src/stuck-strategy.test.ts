import type { Strategy } from "@ctxkit/core/kit";
import { sampleTurn } from "@ctxkit/core/testing";
import { describe, expect, it } from "vitest";
import { openSession } from "../test/open-session.js";
import { useTempDirectories } from "../test/temp-directory.js";

const { directory } = useTempDirectories();

describe("a strategy that never settles", () => {
  it("should neither hold a request nor close() and the lock for good (regression)", async () => {
    const folder = await directory();
    const stuck: Strategy = { name: "stuck", apply: () => new Promise(() => {}) };
    const { manager } = await openSession(folder, { strategies: [stuck, "truncate"], strategyTimeoutMs: 20 });
    for (let turn = 0; turn < 6; turn += 1) for (const message of sampleTurn(turn, 400)) await manager.addMessage(message);
    const controller = new AbortController();
    const abandoned = manager.getMessagesForRequest({ tokenBudget: 600, signal: controller.signal });
    controller.abort();
    await expect(abandoned).rejects.toMatchObject({ name: "AbortError" });
    await manager.getMessagesForRequest({ tokenBudget: 600 });
    await manager.close();
    const reopened = await openSession(folder);
    expect(await reopened.manager.getMessages()).toHaveLength(24);
    await reopened.manager.close();
  });
});
