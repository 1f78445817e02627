import type { Message } from "@ctxkit/core";
import { sampleTurn, systemMessage, userMessage } from "@ctxkit/core/testing";
import { createSimpleContext } from "@ctxkit/context-simple";
import { describe, expect, it } from "vitest";
import { recordingSummarizer } from "../test/recording-summarizer.js";
import { currentFilesReminder, todoListReminder, withPostSummaryHooks, type PostSummaryHook } from "./post-summary-hooks.js";
import { createSessionMemoryStrategy } from "./session-memory.js";

/** The budgets here are small: the earlier compaction threshold and target leave room beside the summary for what the tests look at. */
const RATIOS = { compactThreshold: 0.92, targetRatio: 0.6 };

const call = (id: string, name: string, args: object): Message => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
});
const result = (id: string, content: string): Message => ({ role: "tool", tool_call_id: id, content });

const history: Message[] = [
  systemMessage("be brief"),
  userMessage("fix the parser"),
  call("t1", "TodoWrite", { todos: ["read parser", "fix bug"] }),
  result("t1", "ok"),
  call("e1", "edit_file", { path: "src/parser.ts", content: "x" }),
  result("e1", "ok"),
  call("r1", "read_file", { path: "src/lexer.ts" }),
  result("r1", "lexer ".repeat(100)),
  call("t2", "TodoWrite", { todos: ["fix bug", "add test"] }),
  result("t2", "ok"),
  ...Array.from({ length: 10 }, (_, turn) => sampleTurn(turn, 600)).flat(),
];

async function compactedView(hooks: readonly PostSummaryHook[]) {
  const strategy = withPostSummaryHooks(
    createSessionMemoryStrategy({ summarizer: recordingSummarizer(), updateEveryTokens: 100, keepRecentMessages: 8 }),
    hooks,
  );
  const manager = createSimpleContext({ ...RATIOS, tokenizer: "estimate", strategies: [strategy, "truncate"] });
  await manager.setMessages(history);
  await manager.getMessagesForRequest({ tokenBudget: 100_000 });
  await manager.flushBackground();
  const view = await manager.getMessagesForRequest({ tokenBudget: 1_000 });
  await manager.close();
  return view;
}

describe("withPostSummaryHooks", () => {
  it("should put one reminder per hook right after the new summary, marked as ctxkit's", async () => {
    const view = await compactedView([todoListReminder(), currentFilesReminder()]);
    const at = view.findIndex((message) => message.metadata?.ctxkit?.source === "summary");
    expect(at).toBeGreaterThan(0);
    const [todo, files] = view.slice(at + 1, at + 3);
    expect(todo).toEqual({
      role: "user",
      content: expect.stringContaining('{"todos":["fix bug","add test"]}'),
      metadata: { ctxkit: { source: "reminder" } },
    });
    expect(todo!.content).toMatch(/^<reminder>\nThe open todo list, as last written with TodoWrite/);
    expect(files!.content).toContain("Files changed: src/parser.ts");
    expect(files!.content).toContain("Files read: src/lexer.ts");
  });

  it("should add nothing for a hook with nothing to say", async () => {
    const view = await compactedView([() => undefined, () => "  "]);
    expect(view.some((message) => message.metadata?.ctxkit?.source === "reminder")).toBe(false);
    expect(view.some((message) => message.metadata?.ctxkit?.source === "summary")).toBe(true);
  });

  it("should leave the view alone when the wrapped strategy does nothing", async () => {
    const manager = createSimpleContext({
      ...RATIOS,
      tokenizer: "estimate",
      strategies: [withPostSummaryHooks(createSessionMemoryStrategy(), [() => "remember"]), "truncate"],
    });
    await manager.setMessages(history);
    const view = await manager.getMessagesForRequest({ tokenBudget: 1_000 });
    expect(view.some((message) => message.metadata?.ctxkit?.source === "reminder")).toBe(false);
  });
});
