import { ContextBudgetError, type ContextEventMap, type Message } from "../index.js";
import { checkToolPairs } from "../kit.js";
import type { Strategy } from "../kit.js";
import { describe, expect, it } from "vitest";
import { assistantMessage, sampleTurn, systemMessage, toolCallMessage, toolResultMessage, userMessage } from "../testing/index.js";
import { addAll, managerWithEvents, memoryContext, pinned } from "../../test/memory-context.js";

describe("compaction", () => {
  describe("target report", () => {
    const postCompacts = (events: readonly { event: string; payload: unknown }[]) =>
      events
        .filter((recorded) => recorded.event === "context:post_compact")
        .map((recorded) => recorded.payload as ContextEventMap["context:post_compact"]);

    it("should name the target it reached, and no shortfall", async () => {
      const { manager, events } = await managerWithEvents({ targetRatio: 0.6 });
      await addAll(manager, Array.from({ length: 8 }, (_, index) => sampleTurn(index)).flat());
      await manager.getMessagesForRequest({ tokenBudget: 2_000 });
      const [post] = postCompacts(events);
      expect(post).toMatchObject({ budget: 2_000, target: 1_200 });
      expect(post!.tokenCount).toBeLessThanOrEqual(1_200);
      expect(post).not.toHaveProperty("shortOfTarget");
    });

    it("should say the strategies stopped short when they left the view above its target within the budget", async () => {
      const { manager, events } = await managerWithEvents({ strategies: ["clear-tool-results"] });
      await addAll(manager, Array.from({ length: 8 }, (_, index) => sampleTurn(index, 400)).flat());
      await manager.getMessagesForRequest({ tokenBudget: 1_000 });
      const [post] = postCompacts(events);
      expect(post!.tokenCount).toBeGreaterThan(post!.target);
      expect(post!.tokenCount).toBeLessThanOrEqual(1_000);
      expect(post!.shortOfTarget).toMatchObject({ reason: "strategies" });
      expect(post!.shortOfTarget!.requiredTokens).toBeLessThanOrEqual(post!.target);
    });

    it("should say what may not be dropped passes the target when the current turn alone does", async () => {
      const { manager, events } = await managerWithEvents();
      await addAll(manager, [userMessage("old question"), assistantMessage("old answer"), userMessage("now ".repeat(300))]);
      await manager.getMessagesForRequest({ tokenBudget: 350 });
      const [post] = postCompacts(events);
      expect(post!.shortOfTarget).toEqual({ reason: "protected", requiredTokens: post!.tokenCount });
      expect(post!.shortOfTarget!.requiredTokens).toBeGreaterThan(post!.target);
    });

    it("should aim a pass that holds a window limit at the budget alone", async () => {
      const { manager, events } = await managerWithEvents({ strategies: [{ name: "sliding-window", options: { windowSize: 4 } }] });
      await addAll(manager, Array.from({ length: 3 }, (_, index) => sampleTurn(index, 40)).flat());
      await manager.getMessagesForRequest({ tokenBudget: 100_000 });
      const [post] = postCompacts(events);
      expect(post).toMatchObject({ reason: "limit", target: 100_000 });
      expect(post).not.toHaveProperty("shortOfTarget");
    });
  });

  describe("budget", () => {
    it("should resolve the budget from the provider's window when no explicit budget is given", async () => {
      const manager = await memoryContext({ tokenizer: "estimate", safetyMargin: 0 });
      await addAll(manager, sampleTurn(1));
      const provider = { name: "tiny", getInfo: () => ({ defaults: { contextWindow: 4_000, maxOutputTokens: 1_000 } }) };
      await manager.getMessagesForRequest({ provider });
      expect((await manager.usage())?.budget).toBe(3_000);
    });

    it("should throw ContextBudgetError with the figures when the minimal view cannot fit", async () => {
      const { manager } = await managerWithEvents({ maxTokens: 100 });
      await addAll(manager, [systemMessage("rule ".repeat(400)), userMessage("hi")]);
      const error = await manager.getMessagesForRequest().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextBudgetError);
      expect(error).toMatchObject({ budget: 100 });
      expect((error as ContextBudgetError).required).toBeGreaterThan(100);
    });

    it("should count a whole unit kept for a protected message in ContextBudgetError.required (regression)", async () => {
      const manager = await memoryContext({ protectFirst: 1 });
      await addAll(manager, [toolCallMessage("c1"), userMessage("")]);
      const error = await manager.getMessagesForRequest({ tokenBudget: 17 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextBudgetError);
      expect((error as ContextBudgetError).required).toBeGreaterThan(17);
    });

    it("should keep a refused compaction's decisions rather than redo them on the next request", async () => {
      const draftSizes: number[] = [];
      const recorder: Strategy = { name: "recorder", apply: (view) => (draftSizes.push(view.entries.length), { view, applied: false }) };
      const { manager } = await managerWithEvents({ strategies: [recorder, "clear-tool-results", "truncate"] });
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
      const { manager, count } = await managerWithEvents();
      const history = [systemMessage("rule ".repeat(800)), ...Array.from({ length: 8 }, (_, index) => sampleTurn(index, 2_000)).flat()];
      await addAll(manager, history);
      await expect(manager.getMessagesForRequest({ tokenBudget: 500 })).rejects.toBeInstanceOf(ContextBudgetError);
      const view = await manager.getMessagesForRequest({ tokenBudget: 100_000 });
      expect(count("context:pre_compact")).toBe(2);
      expect(view).toEqual(history);
    });

    it("should keep every view within the budget and its tool pairs whole", async () => {
      const { manager } = await managerWithEvents({ maxTokens: 3_000 });
      for (const message of Array.from({ length: 40 }, (_, index) => sampleTurn(index, 3_000)).flat()) {
        await manager.addMessage(message);
        const view = await manager.getMessagesForRequest();
        expect(checkToolPairs(view)).toEqual([]);
        expect((await manager.usage())!.tokens).toBeLessThanOrEqual(3_000);
      }
    });

    it("should cut a text the default trim already shortened to the last resort's 2,000 characters (regression)", async () => {
      // The default trim (20,000 characters) leaves 12,000 of each; the last resort's limit must apply to those too.
      const file = (name: string) => Array.from({ length: 1_500 }, (_, line) => `${name} line ${line}: build step done`).join("\n");
      const { manager } = await managerWithEvents({ maxTokens: 2_000 });
      await addAll(manager, [
        systemMessage("be brief"),
        userMessage("read both files"),
        toolCallMessage("c1", "c2"),
        toolResultMessage("c1", file("a")),
        toolResultMessage("c2", file("b")),
      ]);
      const view = await manager.getMessagesForRequest();
      const results = view.filter((message) => message.role === "tool");
      expect(results.map((message) => message.tool_call_id)).toEqual(["c1", "c2"]);
      for (const result of results) expect(String(result.content).length).toBeLessThanOrEqual(2_000);
      expect((await manager.usage())!.tokens).toBeLessThanOrEqual(2_000);
    });
  });

  describe("protections", () => {
    it("should keep system, developer, pinned and the latest user message through compaction", async () => {
      const { manager } = await managerWithEvents({ maxTokens: 2_000 });
      const keep = [systemMessage("sys"), { role: "developer", content: "dev" } as Message, pinned("remember this")];
      await addAll(manager, [...keep, ...Array.from({ length: 10 }, (_, index) => sampleTurn(index, 3_000)).flat(), userMessage("latest")]);
      const view = await manager.getMessagesForRequest();
      for (const message of [...keep, userMessage("latest")]) expect(view).toContainEqual(message);
    });

    it("should keep the first protectFirst messages", async () => {
      const { manager } = await managerWithEvents({ maxTokens: 2_000, protectFirst: 1 });
      await addAll(manager, [userMessage("the task"), ...Array.from({ length: 10 }, (_, index) => sampleTurn(index, 3_000)).flat()]);
      expect((await manager.getMessagesForRequest())[0]).toEqual(userMessage("the task"));
    });

    it("should never leave a tool result orphaned when it drops old turns (regression)", async () => {
      const { manager } = await managerWithEvents({ maxTokens: 1_500, strategies: ["truncate"] });
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
      const { manager } = await managerWithEvents({
        maxTokens: 1_200,
        strategies: [{ name: "clear-tool-results", options: { keepRecent: 0 } }],
      });
      await addAll(manager, [...sampleTurn(1, 4_000), ...sampleTurn(2, 4_000), userMessage("latest")]);
      const view = await manager.getMessagesForRequest();
      const tools = view.filter((message) => message.role === "tool");
      expect(tools).toHaveLength(2);
      for (const tool of tools) expect(String(tool.content).length).toBeLessThan(200);
    });

    it("should run a strategy object and report its step in post_compact", async () => {
      const seen: string[] = [];
      const { manager, events } = await managerWithEvents({
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
      const { manager } = await managerWithEvents({ maxTokens: 2_000, strategies: [] });
      await addAll(manager, Array.from({ length: 6 }, (_, index) => sampleTurn(index, 2_000)).flat());
      await manager.getMessagesForRequest();
      expect((await manager.usage())!.tokens).toBeLessThanOrEqual(2_000);
    });
  });
});
