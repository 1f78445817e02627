import type { Message } from "../messages/message.js";
import type { PreviousRequest, Strategy } from "../pipeline/strategy.js";
import { sampleTurn, systemMessage, userMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

/** A strategy that changes nothing and records what each compaction handed it. */
function recordingStrategy(seen: (PreviousRequest | undefined)[]): Strategy {
  return {
    name: "recording",
    apply(view, context) {
      seen.push(context.previousRequest);
      return { view, applied: false };
    },
  };
}

const tools = [{ type: "function", function: { name: "read_file", parameters: { type: "object" } } }];

describe("StrategyContext.previousRequest", () => {
  it("should hand a compaction the view the previous request returned, the same messages, and that request's tools", async () => {
    const seen: (PreviousRequest | undefined)[] = [];
    const manager = await memoryContext({ tokenizer: "estimate", strategies: [recordingStrategy(seen), "truncate"] });
    await manager.setMessages([systemMessage("be brief"), ...Array.from({ length: 4 }, (_, turn) => sampleTurn(turn, 200)).flat()]);
    const first = await manager.getMessagesForRequest({ tokenBudget: 1_000_000, tools });
    await manager.addMessage(userMessage("and now?"));
    await manager.compact({ tokenBudget: 1_000_000 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.tools).toBe(tools);
    expect(seen[0]!.messages).toEqual(first);
    // The very objects the request returned, so an adapter converts them to the same bytes again.
    seen[0]!.messages.forEach((message, index) => expect(message).toBe(first[index]));
  });

  it("should hand a compaction the model the previous request was for, and none when that request named none", async () => {
    const seen: (PreviousRequest | undefined)[] = [];
    const manager = await memoryContext({ tokenizer: "estimate", strategies: [recordingStrategy(seen)] });
    await manager.setMessages([systemMessage("be brief"), ...sampleTurn(0, 200)]);
    await manager.getMessagesForRequest({ tokenBudget: 1_000_000, model: "claude-sonnet-4-5" });
    // The compaction runs before its own request is recorded: it gets the previous request's model, not its own.
    await manager.compact({ tokenBudget: 1_000_000, model: "gpt-4o" });
    await manager.compact({ tokenBudget: 1_000_000 });
    await manager.compact({ tokenBudget: 1_000_000 });
    expect(seen.map((request) => request?.model)).toEqual(["claude-sonnet-4-5", "gpt-4o", undefined]);
    expect(seen.every((request) => request !== undefined && !("tools" in request))).toBe(true);
    expect("model" in seen[2]!).toBe(false);
  });

  it("should hand nothing before the first request, nor after the history is set again", async () => {
    const seen: (PreviousRequest | undefined)[] = [];
    const manager = await memoryContext({ tokenizer: "estimate", strategies: [recordingStrategy(seen)] });
    const history: Message[] = [systemMessage("be brief"), ...sampleTurn(0, 200)];
    await manager.setMessages(history);
    await manager.compact({ tokenBudget: 1_000_000 });
    await manager.getMessagesForRequest({ tokenBudget: 1_000_000 });
    await manager.setMessages(history);
    await manager.compact({ tokenBudget: 1_000_000 });
    expect(seen).toEqual([undefined, undefined]);
  });
});
