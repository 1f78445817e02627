import { ContextCounterError, ContextRequestError, type Provider } from "../index.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const history = [systemMessage("be brief"), ...Array.from({ length: 10 }, (_, turn) => sampleTurn(turn, 800)).flat()];

describe("budget inputs that are not a count", () => {
  it("should refuse a NaN, string or object tokenBudget instead of returning an over-budget view (regression)", async () => {
    const manager = await memoryContext({ tokenizer: "estimate", maxTokens: 2_000 });
    await manager.setMessages(history);
    for (const tokenBudget of [Number.NaN, "4000", {}]) {
      await expect(manager.getMessagesForRequest({ tokenBudget: tokenBudget as number })).rejects.toBeInstanceOf(ContextRequestError);
    }
    await manager.getMessagesForRequest();
    expect((await manager.usage())!.tokens).toBeLessThanOrEqual(2_000);
  });

  it("should refuse provider info that is NaN or negative, naming the field (regression)", async () => {
    const manager = await memoryContext({ tokenizer: "estimate", maxTokens: 2_000 });
    await manager.setMessages(history);
    const provider: Provider = { name: "odd", getInfo: () => ({ defaults: { contextWindow: 100_000, maxOutputTokens: -90_000 } }) };
    await expect(manager.getMessagesForRequest({ provider })).rejects.toThrow(/maxOutputTokens/);
  });
});

describe("a counter of the caller's own", () => {
  it("should fail the request with ContextCounterError when it returns NaN, never an over-budget view (regression)", async () => {
    const manager = await memoryContext({ tokenizer: { name: "broken", count: () => Number.NaN }, maxTokens: 2_000 });
    await manager.setMessages(history);
    await expect(manager.getMessagesForRequest()).rejects.toBeInstanceOf(ContextCounterError);
  });
});
