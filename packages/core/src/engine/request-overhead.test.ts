import { ContextRequestError, estimateCounter, type Message, type TokenCounter } from "../index.js";
import { countMessageTokens } from "../kit.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const history: Message[] = [systemMessage("be brief"), ...Array.from({ length: 12 }, (_, turn) => sampleTurn(turn, 300)).flat()];

const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "The weather in a city. ".repeat(40),
    parameters: { type: "object", properties: { city: { type: "string" } } },
  },
};

function countingEstimate(): TokenCounter & { texts: string[] } {
  const inner = estimateCounter();
  const texts: string[] = [];
  return { name: inner.name, texts, count: (text) => (texts.push(text), inner.count(text)) };
}

const viewTokens = (view: readonly Message[]) => view.reduce((sum, message) => sum + countMessageTokens(message, estimateCounter()), 0);

describe("RequestOptions.tools and reserveTokens", () => {
  it("should fit the view plus its tools in the budget", async () => {
    // A budget the history alone fits under the compaction threshold, and the history plus the tool does not.
    const tokenBudget = Math.ceil(viewTokens(history) / 0.65);
    const manager = await memoryContext({ tokenizer: "estimate" });
    await manager.setMessages(history);
    const view = await manager.getMessagesForRequest({ tokenBudget, tools: [weatherTool] });
    const usage = (await manager.usage())!;
    expect(usage.overheadTokens).toBeGreaterThan(200);
    expect(viewTokens(view) + usage.overheadTokens!).toBeLessThanOrEqual(tokenBudget);
    const withoutTools = await memoryContext({ tokenizer: "estimate" });
    await withoutTools.setMessages(history);
    expect(await withoutTools.getMessagesForRequest({ tokenBudget })).toEqual(history);
    expect(view.length).toBeLessThan(history.length);
  });

  it("should take reserveTokens off the budget", async () => {
    const manager = await memoryContext({ tokenizer: "estimate" });
    await manager.setMessages(history);
    const view = await manager.getMessagesForRequest({ tokenBudget: 2_000, reserveTokens: 900 });
    expect(viewTokens(view)).toBeLessThanOrEqual(1_100);
    expect((await manager.usage())!.overheadTokens).toBe(900);
  });

  it("should count the same tool definitions once across requests", async () => {
    const counter = countingEstimate();
    const manager = await memoryContext({ tokenizer: counter });
    await manager.setMessages(history);
    const tools = [weatherTool];
    await manager.getMessagesForRequest({ tokenBudget: 50_000, tools });
    const countedTools = () => counter.texts.filter((text) => text.includes("get_weather")).length;
    expect(countedTools()).toBe(1);
    await manager.getMessagesForRequest({ tokenBudget: 50_000, tools: [...tools] });
    expect(countedTools()).toBe(1);
  });

  it("should reject a reserveTokens that is not a finite number ≥ 0, naming it", async () => {
    const manager = await memoryContext({ tokenizer: "estimate" });
    await manager.setMessages(history);
    for (const reserveTokens of [Number.NaN, -1, "10" as unknown as number]) {
      const failure = manager.getMessagesForRequest({ tokenBudget: 2_000, reserveTokens });
      await expect(failure).rejects.toBeInstanceOf(ContextRequestError);
      await expect(failure).rejects.toThrow(/reserveTokens/);
    }
  });

  it("should reject a model that is not a non-empty string with the typed error naming it, changing nothing", async () => {
    const manager = await memoryContext({ tokenizer: "estimate" });
    await manager.setMessages(history);
    const before = await manager.getMessagesForRequest({ tokenBudget: 2_000, model: "gpt-4o" });
    const usage = await manager.usage();
    for (const model of [42, "", null, { name: "gpt-4o" }, ["gpt-4o"]] as unknown as string[]) {
      for (const call of [
        () => manager.getMessagesForRequest({ tokenBudget: 2_000, model }),
        () => manager.compact({ tokenBudget: 2_000, model }),
        () => manager.shouldCompact({ tokenBudget: 2_000, model }),
      ]) {
        const failure = call();
        await expect(failure).rejects.toBeInstanceOf(ContextRequestError);
        await expect(failure).rejects.toThrow(/model/);
      }
    }
    expect(await manager.usage()).toEqual(usage);
    expect(await manager.getMessagesForRequest({ tokenBudget: 2_000 })).toEqual(before);
  });

  it("should reject tools that cannot be serialized with a typed error naming the tool, changing nothing (regression)", async () => {
    const circular: Record<string, unknown> = { type: "function" };
    circular["self"] = circular;
    const unsendable = [
      circular,
      { type: "function", size: 10n },
      {
        toJSON: () => {
          throw new Error("no JSON here");
        },
      },
    ];
    const manager = await memoryContext({ tokenizer: "estimate" });
    await manager.setMessages(history);
    const before = await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    const usage = await manager.usage();
    for (const tool of unsendable) {
      for (const call of [
        () => manager.getMessagesForRequest({ tokenBudget: 2_000, tools: [weatherTool, tool] }),
        () => manager.compact({ tokenBudget: 2_000, tools: [weatherTool, tool] }),
        () => manager.shouldCompact({ tokenBudget: 2_000, tools: [weatherTool, tool] }),
      ]) {
        const failure = call();
        await expect(failure).rejects.toBeInstanceOf(ContextRequestError);
        await expect(failure).rejects.toThrow(/tools\[1\]/);
      }
    }
    expect(await manager.usage()).toEqual(usage);
    expect(await manager.getMessagesForRequest({ tokenBudget: 2_000 })).toEqual(before);
  });
});
