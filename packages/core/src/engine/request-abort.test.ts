import type { Strategy } from "../index.js";
import { sampleTurn, userMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

/** A strategy that waits until the test lets it go: a summarizer whose LLM call is slow, or stuck. */
function heldStrategy() {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const strategy: Strategy = { name: "held", apply: async (view) => (await held, { view, applied: false }) };
  return { strategy, release };
}

async function filledManager(strategy: Strategy) {
  const manager = await memoryContext({ tokenizer: "estimate", strategies: [strategy, "truncate"] });
  for (let turn = 0; turn < 6; turn += 1) for (const message of sampleTurn(turn, 400)) await manager.addMessage(message);
  return manager;
}

describe("a request's AbortSignal", () => {
  it("should reject a request stuck in a strategy as soon as its signal aborts (regression)", async () => {
    const { strategy, release } = heldStrategy();
    const manager = await filledManager(strategy);
    const controller = new AbortController();
    const request = manager.getMessagesForRequest({ tokenBudget: 600, signal: controller.signal });
    controller.abort(new Error("caller gave up"));
    await expect(request).rejects.toThrow("caller gave up");
    release();
  });

  it("should reject a request still waiting in the queue, and let later calls run once the queue moves (regression)", async () => {
    const { strategy, release } = heldStrategy();
    const manager = await filledManager(strategy);
    const first = manager.getMessagesForRequest({ tokenBudget: 600 });
    const controller = new AbortController();
    const waiting = manager.getMessagesForRequest({ tokenBudget: 600, signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    release();
    await expect(first).resolves.toBeInstanceOf(Array);
    await manager.addMessage(userMessage("still here"));
    expect((await manager.getMessagesForRequest({ tokenBudget: 600 })).at(-1)).toEqual(userMessage("still here"));
  });

  it("should reject at once, with no work, when the signal is already aborted", async () => {
    const { strategy, release } = heldStrategy();
    const manager = await filledManager(strategy);
    await expect(manager.compact({ signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    release();
    expect(await manager.usage()).toBeUndefined();
  });
});

describe("strategyTimeoutMs", () => {
  it("should answer a request whose strategy never settles, and close afterwards (regression)", async () => {
    const stuck: Strategy = { name: "stuck", apply: () => new Promise(() => {}) };
    const manager = await memoryContext({ tokenizer: "estimate", strategies: [stuck, "truncate"], strategyTimeoutMs: 20 });
    for (let turn = 0; turn < 6; turn += 1) for (const message of sampleTurn(turn, 400)) await manager.addMessage(message);
    await manager.getMessagesForRequest({ tokenBudget: 600 });
    expect((await manager.usage())!.tokens).toBeLessThanOrEqual(600);
    await expect(manager.close()).resolves.toBeUndefined();
  });
});
