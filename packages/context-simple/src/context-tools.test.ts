import { createContextManager, createContextTools, PIN_MESSAGE_TOOL, RETRIEVE_TOOL_RESULT_TOOL, UNPIN_MESSAGE_TOOL, type Message } from "@ctxkit/core";
import { MemoryMessageStore } from "./memory-message-store.js";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { describe, expect, it } from "vitest";
import { createSimpleContext } from "./index.js";

const history: Message[] = [systemMessage("be brief"), ...Array.from({ length: 10 }, (_, turn) => sampleTurn(turn, 800)).flat()];

async function managerWith(strategies: Parameters<typeof createSimpleContext>[0] = {}) {
  const manager = createSimpleContext({ tokenizer: "estimate", ...strategies });
  await manager.setMessages(history);
  return manager;
}

describe("context tools", () => {
  describe("definitions", () => {
    it("should be OpenAI function tools, plain JSON", () => {
      for (const tool of [PIN_MESSAGE_TOOL, UNPIN_MESSAGE_TOOL, RETRIEVE_TOOL_RESULT_TOOL]) {
        expect(tool.type).toBe("function");
        expect(JSON.parse(JSON.stringify(tool))).toEqual(tool);
        expect(tool.function.parameters).toMatchObject({ type: "object", additionalProperties: false });
      }
    });
  });

  describe("pin_message", () => {
    it("should keep a pinned message through compaction without changing the stored message", async () => {
      const manager = await managerWith();
      const tools = createContextTools(manager);
      expect(tools.definitions.map((tool) => tool.function.name)).toEqual(["pin_message", "unpin_message", "retrieve_tool_result"]);
      const stored = (await manager.getMessages())[1]!;
      expect(await tools.handle("pin_message", '{"index": 1}')).toBe('Pinned message 1 (user: "question 0").');
      const view = await manager.getMessagesForRequest({ tokenBudget: 700 });
      expect(view).toContain(stored);
      expect((await manager.getMessages())[1]).toEqual({ role: "user", content: "question 0" });
      expect(await manager.pinnedMessages()).toEqual([1]);
    });

    it("should let the message go again after unpin_message, and count negative indices from the end", async () => {
      const manager = await managerWith();
      const tools = createContextTools(manager);
      await tools.handle("pin_message", { index: 1 });
      expect(await tools.handle("unpin_message", { index: -40 })).toMatch(/^Unpinned message 1 /);
      const view = await manager.getMessagesForRequest({ tokenBudget: 700 });
      expect(view).not.toContainEqual({ role: "user", content: "question 0" });
      expect(await tools.handle("pin_message", { index: -1 })).toMatch(/^Pinned message 40 \(assistant: "answer 9"\)/);
    });

    it("should answer bad arguments with an error text the model can act on", async () => {
      const tools = createContextTools(await managerWith());
      expect(await tools.handle("pin_message", "{")).toBe("Error: the arguments are not valid JSON.");
      expect(await tools.handle("pin_message", { index: "1" })).toMatch(/^Error: index:/);
      expect(await tools.handle("pin_message", { index: 99 })).toMatch(/^Error: .*0 to 40/);
      await expect(tools.handle("bash", {})).rejects.toThrow(/not a context tool/);
    });

    it("should keep pins in the session's state, so a manager over the same store sees them", async () => {
      const store = new MemoryMessageStore();
      const first = await createContextManager({ store, tokenizer: "estimate" });
      await first.setMessages(history);
      await first.pinMessage(3);
      await first.close();
      const second = await createContextManager({ store, tokenizer: "estimate" });
      expect(await second.pinnedMessages()).toEqual([3]);
      expect((await second.getMessages())[3]).toEqual(history[3]);
      await second.clear();
      expect(await second.pinnedMessages()).toEqual([]);
      await second.close();
      const third = await createContextManager({ store, tokenizer: "estimate" });
      expect(await third.pinnedMessages()).toEqual([]);
      await third.close();
    });
  });

  describe("retrieve_tool_result", () => {
    it("should return an offloaded result from the history, in pages", async () => {
      // Truncating down to 60% of the budget leaves an offloaded result in the view.
      const manager = await managerWith({ targetRatio: 0.6, strategies: [{ name: "offload-tool-results", options: { minTokens: 50 } }, "truncate"] });
      const view = await manager.getMessagesForRequest({ tokenBudget: 1_500 });
      const reference = view.find((message) => message.role === "tool" && String(message.content).startsWith("[tool result offloaded"));
      expect(reference).toBeDefined();
      const id = (reference as { tool_call_id: string }).tool_call_id;
      const tools = createContextTools(manager);
      const original = history.find((message) => message.role === "tool" && message.tool_call_id === id)!;
      expect(await tools.handle("retrieve_tool_result", { tool_call_id: id })).toBe(original.content);
      expect(await tools.handle("retrieve_tool_result", { tool_call_id: id, max_chars: 10 })).toBe(`${String(original.content).slice(0, 10)}\n[790 more characters: call retrieve_tool_result again with offset 10]`);
      expect(await tools.handle("retrieve_tool_result", { tool_call_id: "nope" })).toMatch(/^Error: no tool result/);
    });
  });
});
