import {
  checkToolPairs,
  hasToolCalls,
  ContextBudgetError,
  ContextConfigError,
  ContextValidationError,
  type ContextEventMap,
  type ContextEventName,
  type Message,
  type Strategy,
  type TokenCounter,
} from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { assistantMessage, sampleTurn, systemMessage, toolCallMessage, toolResultMessage, userMessage } from "@ctxkit/core/testing";
import { createSimpleContext, type SimpleContextConfig } from "./index.js";

const pinned = (content: string): Message => ({ ...userMessage(content), metadata: { pinned: true } });

type Recorded = { [E in ContextEventName]: { event: E; payload: ContextEventMap[E] } }[ContextEventName];

function managerWithEvents(config: SimpleContextConfig = {}) {
  const events: Recorded[] = [];
  const manager = createSimpleContext({
    tokenizer: "estimate",
    ...config,
    onEvent: (event, payload) => {
      events.push({ event, payload } as Recorded);
    },
  });
  const count = (name: ContextEventName) => events.filter((recorded) => recorded.event === name).length;
  return { manager, events, count };
}

async function addAll(manager: { addMessage(message: Message): Promise<void> }, messages: readonly Message[]) {
  for (const message of messages) await manager.addMessage(message);
}

/** A counter that records every text it is asked to count. */
function spyCounter(): TokenCounter & { calls: string[] } {
  const calls: string[] = [];
  return { name: "spy", calls, count: (text) => (calls.push(text), Math.ceil(text.length / 4)) };
}

describe("SimpleContextManager", () => {
  describe("history", () => {
    it("should return every message in order, equal to what was given, as frozen copies", async () => {
      const { manager } = managerWithEvents();
      const given = [systemMessage("be brief"), ...sampleTurn(1)];
      await addAll(manager, given);
      const stored = await manager.getMessages();
      expect(stored).toEqual(given);
      expect(stored[1]).not.toBe(given[1]);
      expect(Object.isFrozen(stored[2])).toBe(true);
    });

    it("should never mutate the caller's message (regression)", async () => {
      const { manager } = managerWithEvents({ maxTokens: 300 });
      const huge = toolResultMessage("call_1", "y".repeat(50_000));
      const snapshot = structuredClone(huge);
      await addAll(manager, [userMessage("go"), toolCallMessage("call_1"), huge, assistantMessage("done"), userMessage("next")]);
      await manager.getMessagesForRequest();
      expect(huge).toEqual(snapshot);
      expect(Object.isFrozen(huge)).toBe(false);
    });

    it("should keep the full history however small the views were", async () => {
      const { manager } = managerWithEvents({ maxTokens: 2_000 });
      const given = Array.from({ length: 20 }, (_, index) => sampleTurn(index)).flat();
      for (const message of given) {
        await manager.addMessage(message);
        await manager.getMessagesForRequest();
      }
      expect(await manager.getMessages()).toEqual(given);
    });

    it("should reuse the stored objects in views instead of copying them", async () => {
      const { manager } = managerWithEvents();
      await addAll(manager, sampleTurn(1));
      const [stored, view] = [await manager.getMessages(), await manager.getMessagesForRequest()];
      expect(view[0]).toBe(stored[0]);
    });

    it("should not let a caller change later results through a returned array", async () => {
      const { manager } = managerWithEvents();
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
      const { manager } = managerWithEvents();
      await addAll(manager, sampleTurn(1));
      const before = await manager.getMessages();
      const bad = { role: "tool", content: "orphan" } as unknown as Message;
      await expect(manager.addMessage(bad)).rejects.toBeInstanceOf(ContextValidationError);
      await expect(manager.addMessage(bad)).rejects.toThrow(/tool_call_id/);
      expect(await manager.getMessages()).toEqual(before);
    });

    it("should reject a whole setMessages when one message is bad, keeping the old history", async () => {
      const { manager } = managerWithEvents();
      await addAll(manager, sampleTurn(1));
      const bad = [userMessage("ok"), { role: "user" } as unknown as Message];
      await expect(manager.setMessages(bad)).rejects.toThrow(/index 1/);
      expect(await manager.getMessages()).toHaveLength(4);
    });
  });

  describe("config", () => {
    it("should list every unknown key and bad value in one ContextConfigError", () => {
      const bad = { maxTokenz: 5, compactThreshold: 2, tokenizer: "gpt2" } as unknown as SimpleContextConfig;
      let error: unknown;
      try {
        createSimpleContext(bad);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ContextConfigError);
      const paths = (error as ContextConfigError).issues.map((issue) => issue.path);
      expect(paths).toEqual(expect.arrayContaining(["maxTokenz", "compactThreshold", "tokenizer"]));
    });

    it("should reject a target ratio above the threshold", () => {
      expect(() => createSimpleContext({ compactThreshold: 0.5, targetRatio: 0.8 })).toThrow(/targetRatio/);
    });
  });

  describe("token accounting", () => {
    it("should count each message once, however many views are built", async () => {
      const counter = spyCounter();
      const manager = createSimpleContext({ tokenizer: counter, maxTokens: 1_000_000 });
      const given = Array.from({ length: 30 }, (_, index) => sampleTurn(index, 100)).flat();
      for (const message of given) {
        await manager.addMessage(message);
        // Requests come before model calls: after user, tool and answer messages, not mid-call.
        if (!hasToolCalls(message)) await manager.getMessagesForRequest();
      }
      expect(counter.calls).toHaveLength(given.length);
    });
  });

  describe("budget", () => {
    it("should resolve the budget from the provider's window when no explicit budget is given", async () => {
      const manager = createSimpleContext({ tokenizer: "estimate", safetyMargin: 0 });
      await addAll(manager, sampleTurn(1));
      const provider = { name: "tiny", getInfo: () => ({ defaults: { contextWindow: 4_000, maxOutputTokens: 1_000 } }) };
      await manager.getMessagesForRequest({ provider });
      expect((await manager.usage())?.budget).toBe(3_000);
    });

    it("should throw ContextBudgetError with the figures when the minimal view cannot fit", async () => {
      const { manager } = managerWithEvents({ maxTokens: 100 });
      await addAll(manager, [systemMessage("rule ".repeat(400)), userMessage("hi")]);
      const error = await manager.getMessagesForRequest().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextBudgetError);
      expect(error).toMatchObject({ budget: 100 });
      expect((error as ContextBudgetError).required).toBeGreaterThan(100);
    });

    it("should count a whole unit kept for a protected message in ContextBudgetError.required (regression)", async () => {
      const manager = createSimpleContext({ protectFirst: 1 });
      await addAll(manager, [toolCallMessage("c1"), userMessage("")]);
      const error = await manager.getMessagesForRequest({ tokenBudget: 17 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextBudgetError);
      expect((error as ContextBudgetError).required).toBeGreaterThan(17);
    });

    it("should keep a refused compaction's decisions rather than redo them on the next request", async () => {
      const draftSizes: number[] = [];
      const recorder: Strategy = { name: "recorder", apply: (view) => (draftSizes.push(view.entries.length), { view, applied: false }) };
      const { manager } = managerWithEvents({ strategies: [recorder, "clear-tool-results", "truncate"] });
      await addAll(manager, [
        systemMessage("rule ".repeat(800)),
        ...Array.from({ length: 8 }, (_, index) => sampleTurn(index, 2_000)).flat(),
      ]);
      await expect(manager.getMessagesForRequest({ tokenBudget: 500 })).rejects.toBeInstanceOf(ContextBudgetError);
      await expect(manager.getMessagesForRequest({ tokenBudget: 500 })).rejects.toBeInstanceOf(ContextBudgetError);
      expect(draftSizes[0]).toBe(33);
      expect(draftSizes[1]).toBeLessThan(33);
    });

    it("should grow the view back from the history when a much larger budget follows a refusal (regression)", async () => {
      const { manager, count } = managerWithEvents();
      const history = [systemMessage("rule ".repeat(800)), ...Array.from({ length: 8 }, (_, index) => sampleTurn(index, 2_000)).flat()];
      await addAll(manager, history);
      await expect(manager.getMessagesForRequest({ tokenBudget: 500 })).rejects.toBeInstanceOf(ContextBudgetError);
      const view = await manager.getMessagesForRequest({ tokenBudget: 100_000 });
      expect(count("context:pre_compact")).toBe(2);
      expect(view).toEqual(history);
    });

    it("should keep every view within the budget and its tool pairs whole", async () => {
      const { manager } = managerWithEvents({ maxTokens: 3_000 });
      for (const message of Array.from({ length: 40 }, (_, index) => sampleTurn(index, 3_000)).flat()) {
        await manager.addMessage(message);
        const view = await manager.getMessagesForRequest();
        expect(checkToolPairs(view)).toEqual([]);
        expect((await manager.usage())!.tokens).toBeLessThanOrEqual(3_000);
      }
    });
  });

  describe("hysteresis", () => {
    it("should not compact below the threshold, and compact down to the target above it", async () => {
      const { manager, events, count } = managerWithEvents({ maxTokens: 10_000 });
      await addAll(manager, sampleTurn(1, 4_000));
      await manager.getMessagesForRequest();
      expect(count("context:pre_compact")).toBe(0);
      await addAll(manager, [...sampleTurn(2, 20_000), ...sampleTurn(3, 20_000)]);
      await manager.getMessagesForRequest();
      const post = events.find((recorded) => recorded.event === "context:post_compact");
      expect(post?.payload).toMatchObject({ budget: 10_000 });
      expect((post?.payload as ContextEventMap["context:post_compact"]).tokenCount).toBeLessThanOrEqual(6_000);
    });

    it("should extend the previous view between compactions, byte for byte", async () => {
      const { manager, count } = managerWithEvents({ maxTokens: 8_000 });
      await addAll(manager, Array.from({ length: 20 }, (_, index) => sampleTurn(index, 2_000)).flat());
      const compactedView = await manager.getMessagesForRequest();
      expect(count("context:post_compact")).toBe(1);
      await addAll(manager, sampleTurn(99, 50));
      const next = await manager.getMessagesForRequest();
      expect(count("context:post_compact")).toBe(1);
      expect(next.slice(0, compactedView.length)).toEqual(compactedView);
      expect(JSON.stringify(next.slice(0, compactedView.length))).toBe(JSON.stringify(compactedView));
    });

    it("should not compact on every request when an irreducible system prompt sits near the budget (regression)", async () => {
      const { manager, count } = managerWithEvents({ maxTokens: 10_000 });
      await manager.addMessage(systemMessage("policy ".repeat(5_000)));
      let requests = 0;
      for (let index = 0; index < 60; index += 1) {
        await addAll(manager, [userMessage(`q${index}`), assistantMessage(`a${index} `.repeat(20))]);
        await manager.getMessagesForRequest();
        requests += 1;
      }
      expect(requests).toBe(60);
      expect(count("context:pre_compact")).toBeLessThanOrEqual(10);
    });

    it("should forget its decisions on clear() and setMessages()", async () => {
      const { manager, count } = managerWithEvents({ maxTokens: 4_000 });
      const long = Array.from({ length: 10 }, (_, index) => sampleTurn(index, 2_000)).flat();
      await addAll(manager, long);
      await manager.getMessagesForRequest();
      await manager.setMessages(sampleTurn(1, 100));
      expect(await manager.getMessagesForRequest()).toEqual(sampleTurn(1, 100));
      await manager.clear();
      expect(await manager.getMessagesForRequest()).toEqual([]);
      expect(count("context:post_compact")).toBe(1);
    });
  });

  describe("protections", () => {
    it("should keep system, developer, pinned and the latest user message through compaction", async () => {
      const { manager } = managerWithEvents({ maxTokens: 2_000 });
      const keep = [systemMessage("sys"), { role: "developer", content: "dev" } as Message, pinned("remember this")];
      await addAll(manager, [...keep, ...Array.from({ length: 10 }, (_, index) => sampleTurn(index, 3_000)).flat(), userMessage("latest")]);
      const view = await manager.getMessagesForRequest();
      for (const message of [...keep, userMessage("latest")]) expect(view).toContainEqual(message);
    });

    it("should keep the first protectFirst messages", async () => {
      const { manager } = managerWithEvents({ maxTokens: 2_000, protectFirst: 1 });
      await addAll(manager, [userMessage("the task"), ...Array.from({ length: 10 }, (_, index) => sampleTurn(index, 3_000)).flat()]);
      expect((await manager.getMessagesForRequest())[0]).toEqual(userMessage("the task"));
    });

    it("should never leave a tool result orphaned when it drops old turns (regression)", async () => {
      const { manager } = managerWithEvents({ maxTokens: 1_500, strategies: ["truncate"] });
      await addAll(manager, [
        userMessage("go"),
        toolCallMessage("a", "b", "c"),
        toolResultMessage("a", "1 ".repeat(4_000)),
        toolResultMessage("b", "2"),
        toolResultMessage("c", "3"),
        assistantMessage("ok"),
        userMessage("next"),
      ]);
      const view = await manager.getMessagesForRequest();
      expect(checkToolPairs(view)).toEqual([]);
      expect(view.some((message) => message.role === "tool")).toBe(false);
    });
  });

  describe("strategies", () => {
    it("should clear every old tool result with keepRecent 0 (regression: 0 meant protect all)", async () => {
      const { manager } = managerWithEvents({ maxTokens: 1_200, strategies: [{ name: "clear-tool-results", options: { keepRecent: 0 } }] });
      await addAll(manager, [...sampleTurn(1, 4_000), ...sampleTurn(2, 4_000), userMessage("latest")]);
      const view = await manager.getMessagesForRequest();
      const tools = view.filter((message) => message.role === "tool");
      expect(tools).toHaveLength(2);
      for (const tool of tools) expect(String(tool.content).length).toBeLessThan(200);
    });

    it("should run a strategy object and report its step in post_compact", async () => {
      const seen: string[] = [];
      const { manager, events } = managerWithEvents({
        maxTokens: 3_000,
        strategies: [{ name: "noop", apply: (view) => (seen.push("noop"), { view, applied: false }) }, "truncate"],
      });
      await addAll(manager, Array.from({ length: 6 }, (_, index) => sampleTurn(index, 2_000)).flat());
      await manager.getMessagesForRequest();
      expect(seen).toEqual(["noop"]);
      const post = events.find((recorded) => recorded.event === "context:post_compact")?.payload as ContextEventMap["context:post_compact"];
      expect(post.steps.map((step) => step.strategy)).toEqual(["noop", "truncate"]);
    });

    it("should fall back to truncation when the configured strategies cannot fit the budget", async () => {
      const { manager } = managerWithEvents({ maxTokens: 2_000, strategies: [] });
      await addAll(manager, Array.from({ length: 6 }, (_, index) => sampleTurn(index, 2_000)).flat());
      await manager.getMessagesForRequest();
      expect((await manager.usage())!.tokens).toBeLessThanOrEqual(2_000);
    });
  });

  describe("repairs", () => {
    it("should answer a dangling call with a synthetic result and announce it once", async () => {
      const { manager, count } = managerWithEvents();
      await addAll(manager, [userMessage("go"), toolCallMessage("lost"), userMessage("still there?")]);
      const first = await manager.getMessagesForRequest();
      await manager.getMessagesForRequest();
      expect(checkToolPairs(first)).toEqual([]);
      expect(first[2]).toMatchObject({ role: "tool", tool_call_id: "lost", metadata: { ctxkit: { source: "repair" } } });
      expect(count("context:repair")).toBe(1);
      expect(await manager.getMessages()).toHaveLength(3);
    });

    it("should replace the synthetic result once the real result arrives", async () => {
      const { manager } = managerWithEvents();
      await addAll(manager, [userMessage("go"), toolCallMessage("c1")]);
      await manager.getMessagesForRequest();
      await manager.addMessage(toolResultMessage("c1", "real"));
      expect(await manager.getMessagesForRequest()).toEqual([userMessage("go"), toolCallMessage("c1"), toolResultMessage("c1", "real")]);
    });

    it("should leave an orphan result out of the view", async () => {
      const { manager, events } = managerWithEvents();
      await addAll(manager, [userMessage("go"), toolResultMessage("ghost", "?"), assistantMessage("hm")]);
      expect(await manager.getMessagesForRequest()).toEqual([userMessage("go"), assistantMessage("hm")]);
      expect(events.find((recorded) => recorded.event === "context:repair")?.payload).toEqual({
        kind: "orphan_result",
        toolCallIds: ["ghost"],
      });
    });
  });

  describe("abort", () => {
    it("should reject a request whose signal is already aborted, and keep working", async () => {
      const { manager } = managerWithEvents();
      await addAll(manager, sampleTurn(1));
      const controller = new AbortController();
      controller.abort(new Error("user cancelled"));
      await expect(manager.getMessagesForRequest({ signal: controller.signal })).rejects.toThrow("user cancelled");
      await expect(manager.compact({ signal: controller.signal })).rejects.toThrow("user cancelled");
      expect(await manager.getMessagesForRequest()).toHaveLength(4);
    });

    it("should abort a compaction whose signal fires while strategies run, committing nothing", async () => {
      const controller = new AbortController();
      const { manager } = managerWithEvents({
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
      const { manager } = managerWithEvents();
      const given = Array.from({ length: 50 }, (_, index) => userMessage(`m${index}`));
      await Promise.all(given.map((message) => manager.addMessage(message)));
      expect(await manager.getMessages()).toEqual(given);
    });

    it("should build a view from one consistent state while adds are in flight", async () => {
      const { manager } = managerWithEvents();
      const adds = sampleTurn(1).map((message) => manager.addMessage(message));
      const view = manager.getMessagesForRequest();
      const later = manager.addMessage(userMessage("after"));
      await Promise.all([...adds, later]);
      expect(await view).toEqual(sampleTurn(1));
    });

    it("should keep working after a failed operation", async () => {
      const { manager } = managerWithEvents();
      await manager.addMessage({ role: "nobody" } as unknown as Message).catch(() => undefined);
      await manager.addMessage(userMessage("fine"));
      expect(await manager.getMessages()).toEqual([userMessage("fine")]);
    });
  });

  describe("capabilities", () => {
    it("should compact on demand and keep the decision for later views", async () => {
      const { manager, count } = managerWithEvents({ maxTokens: 100_000 });
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
      const manager = createSimpleContext();
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
      const { manager } = managerWithEvents({ maxTokens: 50_000 });
      await addAll(manager, Array.from({ length: 10 }, (_, index) => sampleTurn(index, 4_000)).flat());
      await manager.getMessagesForRequest();
      const before = (await manager.usage())!.tokens;
      const smaller = await manager.recoverOverflow(new Error("context_length_exceeded"));
      expect(checkToolPairs(smaller)).toEqual([]);
      expect((await manager.usage())!.tokens).toBeLessThan(before);
    });

    it("should report the last view's usage", async () => {
      const manager = createSimpleContext({ maxTokens: 9_000 });
      expect(await manager.usage()).toBeUndefined();
      await addAll(manager, sampleTurn(1, 10));
      await manager.getMessagesForRequest();
      expect(await manager.usage()).toMatchObject({ budget: 9_000, messageCount: 4, compacted: false, counter: "tiktoken:o200k_base" });
    });
  });
});
