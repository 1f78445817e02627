import { describe, expect, it } from "vitest";
import { ContextConfigError, type ContextEventMap, type Message } from "../index.js";
import { assistantMessage, sampleTurn, systemMessage, userMessage } from "../testing/index.js";
import { addAll, managerWithEvents, memoryContext } from "../../test/memory-context.js";
import { createMemoryStateStore } from "../pipeline/memory-state-store.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { createContextManager } from "./create-context-manager.js";
import type { CompactionReceipt, MessageFateRun } from "../protocol.js";
import { buildReceipt, CompactionReceipts, createReceiptId, RECEIPT_STATE, SUMMARY_RETENTION_MULTIPLE } from "./compaction-receipts.js";

const turns = (count: number, outputChars = 2_000): Message[] => [
  systemMessage("You are terse."),
  ...Array.from({ length: count }, (_, index) => sampleTurn(index, outputChars)).flat(),
];

/** Each history index's fate, expanded from the runs. */
const expand = (runs: readonly MessageFateRun[]): MessageFateRun["fate"][] =>
  runs.flatMap((run) => Array.from({ length: run.to - run.from + 1 }, () => run.fate));

describe("compaction receipts", () => {
  it("should record a receipt for each compaction, named by post_compact, whose fates cover every message once", async () => {
    const { manager, events } = await managerWithEvents();
    const history = turns(8);
    await addAll(manager, history);
    const view = await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    const posts = events.filter((recorded) => recorded.event === "context:post_compact");
    expect(posts).toHaveLength(1);
    const post = posts[0]!.payload as ContextEventMap["context:post_compact"];
    const [summary] = await manager.listCompactions();
    expect(summary).toMatchObject({ id: post.receiptId, reason: "threshold", budget: 2_000, tokensAfter: post.tokenCount, hasFates: true });
    expect(summary).not.toHaveProperty("fates");
    const receipt = (await manager.getCompaction(summary!.id))!;
    const fates = expand(receipt.fates);
    expect(fates).toHaveLength(history.length);
    // Every verbatim message in the view is kept, and only those.
    const inView = new Set(view.map((message) => JSON.stringify(message)));
    // The stored copies: the manager's validation may order a message's keys differently from the caller's.
    const stored = await manager.getMessages();
    const verbatim = stored.map((message) => inView.has(JSON.stringify(message)));
    expect(fates.map((fate) => fate === "kept")).toEqual(verbatim);
    expect(receipt.fateCounts.kept).toBe(verbatim.filter(Boolean).length);
    const dropped = receipt.fates.filter((run) => run.fate === "dropped" || run.fate === "cleared");
    expect(dropped.length).toBeGreaterThan(0);
    for (const run of dropped) expect(run.strategy).toMatch(/truncate|clear-tool-results|trim|shorten/);
    expect(await manager.getCompaction("no-such-id")).toBeUndefined();
  });

  it("should keep receipts across a reopen of the same memory store", async () => {
    const store = new MemoryMessageStore();
    const manager = await createContextManager({ store, tokenizer: "estimate" });
    await addAll(manager, turns(8));
    await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    const receipts = await manager.listCompactions();
    const whole = await manager.getCompaction(receipts[0]!.id);
    await manager.close();
    const reopened = await createContextManager({ store, tokenizer: "estimate" });
    expect(await reopened.listCompactions()).toEqual(receipts);
    expect(await reopened.getCompaction(receipts[0]!.id)).toEqual(whole);
    await reopened.close();
  });

  it("should measure the prefix the new view shares with the previous request's", async () => {
    const manager = await memoryContext({ tokenizer: "estimate" });
    await addAll(manager, turns(3));
    const first = await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    await addAll(manager, turns(6).slice(1));
    await manager.compact({ tokenBudget: 100_000 });
    const [receipt] = await manager.listCompactions();
    expect(receipt!.reason).toBe("forced");
    // The system message stays; the first tool result cleared breaks the cache there at the latest.
    expect(receipt!.sharedPrefix.messages).toBeGreaterThanOrEqual(1);
    expect(receipt!.sharedPrefix.messages).toBeLessThan(first.length);
  });

  it("should store fates as runs, small for a long session", async () => {
    const manager = await memoryContext({ tokenizer: "estimate" });
    const history = [systemMessage("s"), ...Array.from({ length: 2_000 }, (_, index) => userMessage(`message ${index} `.repeat(5)))];
    await manager.setMessages(history);
    await manager.getMessagesForRequest({ tokenBudget: 3_000 });
    const [summary] = await manager.listCompactions();
    const receipt = (await manager.getCompaction(summary!.id))!;
    expect(receipt.fates.length).toBeLessThan(10);
    expect(expand(receipt.fates)).toHaveLength(history.length);
  });

  it("should refuse a strategy that takes a name reserved for the manager's records", async () => {
    const strategy = { name: RECEIPT_STATE, apply: (view: never) => ({ view, applied: false }) };
    await expect(memoryContext({ strategies: [strategy] })).rejects.toThrow(ContextConfigError);
    await expect(memoryContext({ strategies: [strategy] })).rejects.toThrow(/reserved/);
  });

  it("should keep receipts out of every strategy's state", async () => {
    const seen: string[][] = [];
    const looking = {
      name: "looking",
      apply: (view: never, context: { state: { keys(): string[] } }) => {
        seen.push(context.state.keys());
        return { view, applied: false };
      },
    };
    const manager = await memoryContext({ tokenizer: "estimate", strategies: [looking, "truncate"] });
    await addAll(manager, turns(8));
    await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    await manager.compact({ tokenBudget: 2_000 });
    expect(await manager.listCompactions()).toHaveLength(2);
    expect(seen).toEqual([[], []]);
  });

  it("should reject a receipt bound that is not a positive integer", async () => {
    await expect(memoryContext({ keepCompactionReceipts: 0 })).rejects.toThrow(/keepCompactionReceipts/);
  });
});

describe("receipt ids", () => {
  it("should sort in the order they were made, within one millisecond too (regression)", () => {
    const ids = Array.from({ length: 50 }, () => createReceiptId(1_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("bounded receipts", () => {
  const receiptAt = (time: number): CompactionReceipt =>
    buildReceipt(
      {
        reason: "threshold",
        budget: 100,
        target: 25,
        tokensBefore: 120,
        steps: [],
        entries: [],
        tokensAfter: 0,
        historyLength: 3,
        previousView: [],
        sources: { removed: [{ from: 0, to: 2, strategy: "truncate" }], addedBy: new Map() },
      },
      `${time.toString(36).padStart(9, "0")}-0000-00000000`,
      new Date(time),
    );

  it("should keep the newest in full, older ones as summaries, and delete the oldest", async () => {
    const state = createMemoryStateStore();
    const receipts = new CompactionReceipts(state, 2);
    const total = 2 * SUMMARY_RETENTION_MULTIPLE + 3;
    for (let time = 1; time <= total; time += 1) await receipts.record(receiptAt(time));
    const list = receipts.list();
    expect(list).toHaveLength(2 * SUMMARY_RETENTION_MULTIPLE);
    // Oldest first, newest last.
    expect(list.map((summary) => Date.parse(summary.at))).toEqual([...list.map((summary) => Date.parse(summary.at))].sort((a, b) => a - b));
    expect(list.at(-1)!.at).toBe(new Date(total).toISOString());
    expect(list.map((summary) => summary.hasFates)).toEqual([...Array(list.length - 2).fill(false), true, true]);
    const newest = receipts.get(list.at(-1)!.id)!;
    expect(newest.fates).toEqual([{ from: 0, to: 2, fate: "dropped", strategy: "truncate" }]);
    const older = receipts.get(list[0]!.id)!;
    expect(older.fates).toEqual([]);
    expect(older.fateCounts).toEqual({ kept: 0, cleared: 0, trimmed: 0, summarized: 0, dropped: 3 });
  });
});

describe("explainView", () => {
  it("should explain each message's form and leave the next view as it would have been", async () => {
    const history = turns(8);
    const build = async () => {
      const manager = await memoryContext({ tokenizer: "estimate" });
      await addAll(manager, history);
      return manager;
    };
    const plain = await build();
    const explained = await build();
    const explanation = await explained.explainView({ tokenBudget: 2_000 });
    expect(explanation.compaction).toBe("threshold");
    expect(await explained.listCompactions()).toEqual([]);
    const expected = await plain.getMessagesForRequest({ tokenBudget: 2_000 });
    const next = await explained.getMessagesForRequest({ tokenBudget: 2_000 });
    expect(JSON.stringify(next)).toBe(JSON.stringify(expected));
    expect(explanation.tokens).toBe((await explained.usage())!.tokens);
    expect(explanation.messages).toHaveLength(history.length);
    expect(explanation.messages.filter((message) => message.inView).length + explanation.synthetic.length).toBe(next.length);
    expect(explanation.messages[0]).toMatchObject({ index: 0, role: "system", form: "verbatim", why: "protected" });
    expect(explanation.messages.at(-1)).toMatchObject({ form: "verbatim", why: "current-turn" });
    const totals = Object.values(explanation.totals).reduce((sum, tokens) => sum + tokens, 0);
    expect(totals).toBe(explanation.tokens);
  });

  it("should count the request's tools apart", async () => {
    const manager = await memoryContext({ tokenizer: "estimate" });
    await addAll(manager, [userMessage("hi"), assistantMessage("hello")]);
    const tools = [{ type: "function", function: { name: "read_file", parameters: { type: "object" } } }];
    const explanation = await manager.explainView({ tokenBudget: 10_000, tools });
    expect(explanation.totals.tools).toBeGreaterThan(0);
    expect(explanation.compaction).toBeUndefined();
  });
});
