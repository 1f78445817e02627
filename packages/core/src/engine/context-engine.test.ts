import { ContextConfigError, ContextValidationError, type Message } from "../index.js";
import { checkToolPairs } from "../kit.js";
import { describe, expect, it } from "vitest";
import { assistantMessage, sampleTurn, systemMessage, toolCallMessage, toolResultMessage, userMessage } from "../testing/index.js";
import { addAll, managerWithEvents, memoryContext } from "../../test/memory-context.js";
import type { ContextConfig } from "./context-config.js";

describe("ContextEngine", () => {
  describe("history", () => {
    it("should return every message in order, equal to what was given, as frozen copies", async () => {
      const { manager } = await managerWithEvents();
      const given = [systemMessage("be brief"), ...sampleTurn(1)];
      await addAll(manager, given);
      const stored = await manager.getMessages();
      expect(stored).toEqual(given);
      expect(stored[1]).not.toBe(given[1]);
      expect(Object.isFrozen(stored[2])).toBe(true);
    });

    it("should never mutate the caller's message (regression)", async () => {
      const { manager } = await managerWithEvents({ maxTokens: 300 });
      const huge = toolResultMessage("call_1", "y".repeat(50_000));
      const snapshot = structuredClone(huge);
      await addAll(manager, [userMessage("go"), toolCallMessage("call_1"), huge, assistantMessage("done"), userMessage("next")]);
      await manager.getMessagesForRequest();
      expect(huge).toEqual(snapshot);
      expect(Object.isFrozen(huge)).toBe(false);
    });

    it("should keep the full history however small the views were", async () => {
      const { manager } = await managerWithEvents({ maxTokens: 2_000 });
      const given = Array.from({ length: 20 }, (_, index) => sampleTurn(index)).flat();
      for (const message of given) {
        await manager.addMessage(message);
        await manager.getMessagesForRequest();
      }
      expect(await manager.getMessages()).toEqual(given);
    });

    it("should reuse the stored objects in views instead of copying them", async () => {
      const { manager } = await managerWithEvents();
      await addAll(manager, sampleTurn(1));
      const [stored, view] = [await manager.getMessages(), await manager.getMessagesForRequest()];
      expect(view[0]).toBe(stored[0]);
    });

    it("should not let a caller change later results through a returned array", async () => {
      const { manager } = await managerWithEvents();
      await addAll(manager, sampleTurn(1));
      const view = await manager.getMessagesForRequest();
      view.length = 0;
      Object.freeze(view);
      (await manager.getMessages()).pop();
      await manager.addMessage(userMessage("more"));
      expect(await manager.getMessagesForRequest()).toHaveLength(5);
    });
  });

  describe("validation", () => {
    it("should reject a bad message with the field named and leave the state unchanged", async () => {
      const { manager } = await managerWithEvents();
      await addAll(manager, sampleTurn(1));
      const before = await manager.getMessages();
      const bad = { role: "tool", content: "orphan" } as unknown as Message;
      await expect(manager.addMessage(bad)).rejects.toBeInstanceOf(ContextValidationError);
      await expect(manager.addMessage(bad)).rejects.toThrow(/tool_call_id/);
      expect(await manager.getMessages()).toEqual(before);
    });

    it("should reject a whole setMessages when one message is bad, keeping the old history", async () => {
      const { manager } = await managerWithEvents();
      await addAll(manager, sampleTurn(1));
      const bad = [userMessage("ok"), { role: "user" } as unknown as Message];
      await expect(manager.setMessages(bad)).rejects.toThrow(/index 1/);
      expect(await manager.getMessages()).toHaveLength(4);
    });
  });

  describe("config", () => {
    it("should list every unknown key and bad value in one ContextConfigError", async () => {
      const bad = { maxTokenz: 5, compactThreshold: 2, tokenizer: "gpt2" } as unknown as ContextConfig;
      let error: unknown;
      try {
        await memoryContext(bad);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ContextConfigError);
      const paths = (error as ContextConfigError).issues.map((issue) => issue.path);
      expect(paths).toEqual(expect.arrayContaining(["maxTokenz", "compactThreshold", "tokenizer"]));
    });

    it("should reject a target ratio above the threshold", async () => {
      await expect(memoryContext({ compactThreshold: 0.5, targetRatio: 0.8 })).rejects.toThrow(/targetRatio/);
    });
  });

  describe("abort", () => {
    it("should reject a request whose signal is already aborted, and keep working", async () => {
      const { manager } = await managerWithEvents();
      await addAll(manager, sampleTurn(1));
      const controller = new AbortController();
      controller.abort(new Error("user cancelled"));
      await expect(manager.getMessagesForRequest({ signal: controller.signal })).rejects.toThrow("user cancelled");
      await expect(manager.compact({ signal: controller.signal })).rejects.toThrow("user cancelled");
      expect(await manager.getMessagesForRequest()).toHaveLength(4);
    });

    it("should abort a compaction whose signal fires while strategies run, committing nothing", async () => {
      const controller = new AbortController();
      const { manager } = await managerWithEvents({
        maxTokens: 3_000,
        strategies: [{ name: "slow", apply: (view) => (controller.abort(new Error("too slow")), { view, applied: false }) }, "truncate"],
      });
      await addAll(manager, Array.from({ length: 6 }, (_, index) => sampleTurn(index, 2_000)).flat());
      await expect(manager.getMessagesForRequest({ signal: controller.signal })).rejects.toThrow("too slow");
      expect(await manager.getMessages()).toHaveLength(24);
      await manager.getMessagesForRequest();
      expect((await manager.usage())!.tokens).toBeLessThanOrEqual(3_000);
    });
  });

  describe("concurrency", () => {
    it("should land 50 concurrent adds in call order", async () => {
      const { manager } = await managerWithEvents();
      const given = Array.from({ length: 50 }, (_, index) => userMessage(`m${index}`));
      await Promise.all(given.map((message) => manager.addMessage(message)));
      expect(await manager.getMessages()).toEqual(given);
    });

    it("should build a view from one consistent state while adds are in flight", async () => {
      const { manager } = await managerWithEvents();
      const adds = sampleTurn(1).map((message) => manager.addMessage(message));
      const view = manager.getMessagesForRequest();
      const later = manager.addMessage(userMessage("after"));
      await Promise.all([...adds, later]);
      expect(await view).toEqual(sampleTurn(1));
    });

    it("should keep working after a failed operation", async () => {
      const { manager } = await managerWithEvents();
      await manager.addMessage({ role: "nobody" } as unknown as Message).catch(() => undefined);
      await manager.addMessage(userMessage("fine"));
      expect(await manager.getMessages()).toEqual([userMessage("fine")]);
    });
  });

  describe("capabilities", () => {
    it("should compact on demand and keep the decision for later views", async () => {
      const { manager, count } = await managerWithEvents({ maxTokens: 100_000 });
      await addAll(manager, Array.from({ length: 10 }, (_, index) => sampleTurn(index, 2_000)).flat());
      const outcome = await manager.compact({ tokenBudget: 8_000 });
      expect(outcome.compacted).toBe(true);
      expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore);
      const view = await manager.getMessagesForRequest({ tokenBudget: 8_000 });
      expect((await manager.usage())!.tokens).toBe(outcome.tokensAfter);
      expect(view.some((message) => typeof message.content === "string" && message.content.startsWith("[tool result cleared"))).toBe(true);
      expect(count("context:post_compact")).toBe(1);
    });

    it("should keep a compaction committed while the last tool call still waits for results (regression)", async () => {
      const manager = await memoryContext();
      const log = "2024-05-01T12:00:00Z INFO request handled in 12ms path=/api/items status=200\n".repeat(672);
      await manager.addMessage({
        role: "assistant",
        content: null,
        tool_calls: [toolCallMessage("a").tool_calls![0]!, toolCallMessage("b").tool_calls![0]!],
      });
      await manager.addMessage(toolResultMessage("a", log));
      const outcome = await manager.compact({ tokenBudget: 25_000 });
      await manager.getMessagesForRequest({ tokenBudget: 25_000 });
      expect((await manager.usage())!.tokens).toBe(outcome.tokensAfter);
    });

    it("should return a smaller view after an overflow error", async () => {
      const { manager } = await managerWithEvents({ maxTokens: 50_000 });
      await addAll(manager, Array.from({ length: 10 }, (_, index) => sampleTurn(index, 4_000)).flat());
      await manager.getMessagesForRequest();
      const before = (await manager.usage())!.tokens;
      const smaller = await manager.recoverOverflow(new Error("context_length_exceeded"));
      expect(checkToolPairs(smaller)).toEqual([]);
      expect((await manager.usage())!.tokens).toBeLessThan(before);
    });

    it("should report the last view's usage", async () => {
      const manager = await memoryContext({ maxTokens: 9_000 });
      expect(await manager.usage()).toBeUndefined();
      await addAll(manager, sampleTurn(1, 10));
      await manager.getMessagesForRequest();
      expect(await manager.usage()).toMatchObject({ budget: 9_000, messageCount: 4, compacted: false, counter: "tiktoken:o200k_base" });
    });
  });
});
