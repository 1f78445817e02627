import { describe, expect, it } from "vitest";
import { ContextArgumentError, type Message } from "../index.js";
import { sampleTurn, systemMessage, toolCallMessage, userMessage } from "../testing/index.js";
import { addAll, memoryContext } from "../../test/memory-context.js";
import type { Strategy, StrategyContext, ViewEntry } from "../pipeline/strategy.js";
import { createViewDraft } from "../pipeline/view-draft.js";
import { canCompactThrough } from "../protocol.js";
import { protectAfter, readPartialCompaction } from "./partial-compaction.js";

const BUDGET = 100_000;

// The system message, then six turns of four messages each: turn n holds indexes 4n+1 to 4n+4.
const history: Message[] = [systemMessage("You are terse."), ...Array.from({ length: 6 }, (_, index) => sampleTurn(index)).flat()];

describe("compact({ through })", () => {
  it("should compact only history messages 0…through and leave every later view entry exactly as it was", async () => {
    const manager = await memoryContext({ tokenizer: "estimate", strategies: ["clear-tool-results"] });
    expect(canCompactThrough(manager)).toBe(true);
    await addAll(manager, history);
    const before = await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    const through = 12;
    const result = await manager.compact({ tokenBudget: BUDGET, through });
    expect(result.compacted).toBe(true);
    const after = await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    expect(after.slice(through + 1)).toEqual(before.slice(through + 1));
    // The tool results of turns 0 to 2 were cleared; those after 12 stayed whole.
    expect(after.slice(0, through + 1)).not.toEqual(before.slice(0, through + 1));
    const [receipt] = await manager.listCompactions();
    expect(receipt).toMatchObject({ reason: "forced", through });
    expect(receipt).not.toHaveProperty("hasInstructions");
    const fates = (await manager.getCompaction(receipt!.id))!.fates;
    expect(fates.filter((run) => run.to > through).every((run) => run.fate === "kept")).toBe(true);
    await manager.close();
  });

  it("should refuse a through that splits a tool call from its result, or is not a history index, naming what would do, and change nothing", async () => {
    const manager = await memoryContext({ tokenizer: "estimate", strategies: ["clear-tool-results"] });
    await addAll(manager, history);
    const view = await manager.getMessagesForRequest({ tokenBudget: BUDGET });
    // Index 2 is turn 0's tool call, 3 its result.
    const split = await manager.compact({ tokenBudget: BUDGET, through: 2 }).catch((error: unknown) => error);
    expect(split).toBeInstanceOf(ContextArgumentError);
    expect(split).toMatchObject({
      code: "CONTEXT_ARGUMENT",
      issues: [{ path: "through", message: expect.stringContaining("pass 1 to compact up to it, or 3") }],
    });
    for (const through of [-1, 1.5, history.length, Number.NaN]) {
      await expect(manager.compact({ tokenBudget: BUDGET, through })).rejects.toMatchObject({ issues: [{ path: "through" }] });
    }
    await expect(manager.compact({ tokenBudget: BUDGET, instructions: 7 as never })).rejects.toMatchObject({
      issues: [{ path: "instructions" }],
    });
    expect(await manager.listCompactions()).toEqual([]);
    expect(await manager.getMessagesForRequest({ tokenBudget: BUDGET })).toEqual(view);
    await manager.close();
  });

  it("should hand instructions to the strategies of that compaction only, and record that they were given", async () => {
    const seen: (string | undefined)[] = [];
    const listening: Strategy = {
      name: "listening",
      apply: (view, context: StrategyContext) => {
        seen.push(context.instructions);
        return { view, applied: false };
      },
    };
    const manager = await memoryContext({ tokenizer: "estimate", strategies: [listening, "clear-tool-results"] });
    await addAll(manager, history);
    await manager.compact({ tokenBudget: BUDGET, through: 8, instructions: "Keep every file name." });
    await manager.compact({ tokenBudget: BUDGET });
    expect(seen).toEqual(["Keep every file name.", undefined]);
    const [instructed, plain] = await manager.listCompactions();
    expect(instructed).toMatchObject({ through: 8, hasInstructions: true });
    expect(plain).not.toHaveProperty("through");
    await manager.close();
  });
});

describe("protectAfter", () => {
  const entries: ViewEntry[] = [systemMessage("s"), userMessage("a"), toolCallMessage("c1"), userMessage("b")].map((message, index) => ({
    message,
    tokens: 10,
    source: { kind: "history", index },
  }));

  it("should give back what follows through as it came in, whatever a strategy did to it", () => {
    const { draft, restore } = protectAfter(createViewDraft(entries), 1);
    expect(draft.entries.map((entry) => entry.pinned === true)).toEqual([false, false, true, true]);
    // A strategy that ignored the marks: it dropped entry 3 and rewrote entry 2.
    const hostile = createViewDraft([
      draft.entries[0]!,
      { ...draft.entries[2]!, message: userMessage("rewritten"), pinned: undefined } as never,
    ]);
    expect(restore(hostile).entries).toEqual([entries[0], entries[2], entries[3]]);
  });

  it("should read nothing when neither through nor instructions is given", () => {
    expect(readPartialCompaction({ tokenBudget: 5 }, [])).toBeUndefined();
  });
});
