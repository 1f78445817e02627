import type { ContextConfig } from "../engine/context-config.js";
import { createContextManager, createContextTools, type Message } from "../index.js";
import { PIN_MESSAGE_TOOL, RETRIEVE_TOOL_RESULT_TOOL, UNPIN_MESSAGE_TOOL } from "../kit.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import { describe, expect, it } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const history: Message[] = [systemMessage("be brief"), ...Array.from({ length: 10 }, (_, turn) => sampleTurn(turn, 800)).flat()];

async function managerWith(strategies: ContextConfig = {}) {
  const manager = await memoryContext({ tokenizer: "estimate", ...strategies });
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
      const manager = await managerWith({
        targetRatio: 0.6,
        strategies: [{ name: "offload-tool-results", options: { minTokens: 50 } }, "truncate"],
      });
      const view = await manager.getMessagesForRequest({ tokenBudget: 1_500 });
      const reference = view.find((message) => message.role === "tool" && String(message.content).startsWith("[tool result offloaded"));
      expect(reference).toBeDefined();
      const id = (reference as { tool_call_id: string }).tool_call_id;
      const tools = createContextTools(manager);
      const original = history.find((message) => message.role === "tool" && message.tool_call_id === id)!;
      expect(await tools.handle("retrieve_tool_result", { tool_call_id: id })).toBe(original.content);
      expect(await tools.handle("retrieve_tool_result", { tool_call_id: id, max_chars: 10 })).toBe(
        `${String(original.content).slice(0, 10)}\n[790 more characters: call retrieve_tool_result again with offset 10]`,
      );
      expect(await tools.handle("retrieve_tool_result", { tool_call_id: "nope" })).toMatch(/^Error: no tool result/);
    });

    it("should return exactly the result a reference names when a call id repeats in a later turn (regression)", async () => {
      // Real sessions reuse call ids across turns: every turn here calls `call_0`, each with its own output.
      const repeated: Message[] = Array.from({ length: 6 }, (_, turn) => sampleTurn(turn, 800))
        .flat()
        .map((message) => (message.role === "tool" ? { ...message, tool_call_id: "call_0" } : message))
        .map((message) =>
          message.role === "assistant" && message.tool_calls
            ? { ...message, tool_calls: message.tool_calls.map((call) => ({ ...call, id: "call_0" })) }
            : message,
        );
      // The six turns (about 1,450 tokens) pass the 1,200-token budget, so the first request compacts: a view
      // past its threshold but within its budget may wait, a young session's rewrite of the cache not paying yet.
      // Truncating down to 60% of the budget leaves several offloaded results in the view.
      const manager = await memoryContext({
        tokenizer: "estimate",
        targetRatio: 0.6,
        strategies: [{ name: "offload-tool-results", options: { minTokens: 50 } }, "truncate"],
      });
      await manager.setMessages(repeated);
      const view = await manager.getMessagesForRequest({ tokenBudget: 1_200 });
      const references = view.filter((message) => message.role === "tool" && String(message.content).startsWith("[tool result offloaded"));
      expect(references.length).toBeGreaterThan(1);
      const tools = createContextTools(manager);
      for (const reference of references) {
        const call = JSON.parse(/Call retrieve_tool_result with (\{.*?\}) to read/.exec(String(reference.content))![1]!);
        expect(await tools.handle("retrieve_tool_result", call)).toBe(repeated[call.index]!.content);
      }
      // Without the index the id is ambiguous: the tool says so rather than guessing.
      expect(await tools.handle("retrieve_tool_result", { tool_call_id: "call_0" })).toMatch(
        /^Error: tool_call_id "call_0" names 6 results/,
      );
      expect(await tools.handle("retrieve_tool_result", { tool_call_id: "call_0", index: 1 })).toMatch(
        /^Error: message 1 is not the result/,
      );
    });
  });

  it("should reject an unknown tool name with a typed error", async () => {
    const tools = createContextTools(await managerWith());
    await expect(tools.handle("nope", {})).rejects.toMatchObject({ code: "CONTEXT_VALIDATION" });
  });
});
