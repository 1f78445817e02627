import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyArbitrary } from "../../test/arbitraries.js";
import {
  assistantMessage,
  createTestContext,
  createTestView,
  developerMessage,
  historyIndices,
  pinnedMessage,
  systemMessage,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from "../../test/strategy-context.js";
import { ContextConfigError } from "../errors.js";
import type { Message } from "../messages/message.js";
import { isSummaryEntry } from "../messages/summary-coverage.js";
import type { ViewDraft, ViewEntry } from "../pipeline/strategy.js";
import { canDropUnit, createViewDraft } from "../pipeline/view-draft.js";
import { repairToolPairs } from "../units/repair-tool-pairs.js";
import { truncate } from "./truncate.js";

const conversation: Message[] = [
  systemMessage("rules"),
  userMessage("first task"),
  toolCallMessage("a", "b"),
  toolResultMessage("a", "output a"),
  toolResultMessage("b", "output b"),
  assistantMessage("first answer"),
  userMessage("latest task"),
  toolCallMessage("c"),
  toolResultMessage("c", "output c"),
];

describe("truncate", () => {
  describe("dropping", () => {
    it("should drop the oldest droppable units, whole, until at or below the target", async () => {
      const view = createTestView(conversation);
      const target = view.tokens - view.entries[1]!.tokens - 1;
      const result = await truncate().apply(view, createTestContext({ target }));
      expect(historyIndices(result.view)).toEqual([0, 5, 6, 7, 8]);
      expect(result.view.tokens).toBeLessThanOrEqual(target);
      expect(result.applied).toBe(true);
    });

    it("should stop right after the target is reached", async () => {
      const view = createTestView(conversation);
      const result = await truncate().apply(view, createTestContext({ target: view.tokens - 1 }));
      expect(historyIndices(result.view)).toEqual([0, 2, 3, 4, 5, 6, 7, 8]);
    });

    it("should leave no note that would cost what its drops saved: the view still shrinks", async () => {
      // The kit's recover-overflow property found it (seed 795444732): a short old message with an
      // identifier-like text, dropped for a note naming it, left the view a few tokens larger than before.
      const view = createTestView([
        assistantMessage("0000@A"),
        userMessage(`${"Pasted document line with some words in it.\n".repeat(40)}`),
      ]);
      const result = await truncate({ noteIdentifiers: 200 }).apply(view, createTestContext({ target: view.tokens - 1, budget: 100_000 }));
      expect(historyIndices(result.view)).toEqual([1]);
      expect(result.view.tokens).toBeLessThan(view.tokens);
    });

    it("should return the same draft, not applied, when nothing may be dropped", async () => {
      const view = createTestView([systemMessage("rules"), userMessage("task"), toolCallMessage("a"), toolResultMessage("a", "x")]);
      const result = await truncate().apply(view, createTestContext());
      expect(result).toEqual({ view, applied: false });
      expect(result.view).toBe(view);
    });
  });

  describe("protections", () => {
    it("should keep system, developer and pinned messages and step over them to older-but-droppable units", async () => {
      const view = createTestView([
        userMessage("one"),
        developerMessage("dev"),
        pinnedMessage(assistantMessage("pinned")),
        assistantMessage("two"),
        userMessage("latest"),
      ]);
      const result = await truncate().apply(view, createTestContext());
      expect(historyIndices(result.view)).toEqual([1, 2, 4]);
    });

    it("should never drop the current turn, even with no user message", async () => {
      const view = createTestView([assistantMessage("old"), toolCallMessage("a"), toolResultMessage("a", "x")]);
      const result = await truncate().apply(view, createTestContext());
      expect(historyIndices(result.view)).toEqual([1, 2]);
    });

    it("should not drop a unit that holds a pinned result", async () => {
      const view = createTestView([
        userMessage("task"),
        toolCallMessage("a"),
        pinnedMessage(toolResultMessage("a", "x")),
        userMessage("latest"),
      ]);
      const result = await truncate().apply(view, createTestContext());
      expect(historyIndices(result.view)).toEqual([1, 2, 3]);
    });
  });

  describe("protectFirst", () => {
    it("should keep the first context.protectFirst history messages", async () => {
      const result = await truncate().apply(createTestView(conversation), createTestContext({ protectFirst: 2 }));
      expect(historyIndices(result.view)).toEqual([0, 1, 6, 7, 8]);
    });

    it("should keep a unit whole when protectFirst ends inside it", async () => {
      const result = await truncate().apply(createTestView(conversation), createTestContext({ protectFirst: 3 }));
      expect(historyIndices(result.view)).toEqual([0, 1, 2, 3, 4, 6, 7, 8]);
    });

    it("should use the larger of its own protectFirst and the context's", async () => {
      const result = await truncate({ protectFirst: 2 }).apply(createTestView(conversation), createTestContext({ protectFirst: 1 }));
      expect(historyIndices(result.view)).toEqual([0, 1, 6, 7, 8]);
    });

    it("should reject a negative protectFirst", () => {
      expect(() => truncate({ protectFirst: -1 })).toThrow(ContextConfigError);
    });
  });
});

describe("truncate and summaries", () => {
  it("should drop older units before a summary, and the summary only when nothing else is left", async () => {
    const summary = {
      message: { role: "user", content: "<summary>\nearlier work\n</summary>", metadata: { ctxkit: { source: "summary" } } },
      tokens: 50,
      source: { kind: "synthetic", origin: "summary" },
    } as const;
    const entry = (index: number, content: string) => ({
      message: { role: "assistant", content } as const,
      tokens: 50,
      source: { kind: "history", index } as const,
    });
    const latest = { message: { role: "user", content: "now" } as const, tokens: 10, source: { kind: "history", index: 9 } as const };
    const view = createViewDraft([summary, entry(5, "a"), entry(6, "b"), latest]);
    const gentle = await truncate().apply(view, createTestContext({ target: 70 }));
    expect(gentle.view.entries.map((kept) => kept.message.content)).toEqual([summary.message.content, "now"]);
    const hard = await truncate().apply(view, createTestContext({ target: 20 }));
    expect(hard.view.entries.map((kept) => kept.message.content)).toEqual(["now"]);
  });
});

describe("truncate against the rule it follows", () => {
  /** The oldest units that may be dropped, those holding a summary only once no other is left, until within `target`. */
  function expectedKept(view: ViewDraft, target: number, protectFirst: number): ViewEntry[] {
    const dropped = new Set<number>();
    let tokens = view.tokens;
    for (const isSummaryPass of [false, true])
      view.units.forEach((unit, index) => {
        const entries = view.entries.slice(unit.start, unit.end);
        if (tokens <= target || !canDropUnit(view, unit, protectFirst) || entries.some(isSummaryEntry) !== isSummaryPass) return;
        dropped.add(index);
        tokens -= entries.reduce((sum, entry) => sum + entry.tokens, 0);
      });
    return view.units.flatMap((unit, index) => (dropped.has(index) ? [] : view.entries.slice(unit.start, unit.end)));
  }

  it("should keep exactly the units the rule keeps, with summaries, pins and instructions anywhere", async () => {
    const summary: Message = {
      role: "user",
      content: "<summary>earlier work on src/app.ts</summary>",
      metadata: { ctxkit: { source: "summary" } },
    };
    const pieces = fc.oneof(
      { arbitrary: historyArbitrary({ broken: true, maxUnits: 4 }), weight: 4 },
      { arbitrary: fc.constant([summary]), weight: 1 },
      { arbitrary: fc.constant<Message[]>([{ role: "user", content: "keep this", metadata: { pinned: true } }]), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(pieces, { maxLength: 8 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 3 }),
        async (parts, share, protectFirst) => {
          const view = createTestView(repairToolPairs(parts.flat()).messages);
          const target = Math.floor((view.tokens * share) / 100);
          const result = await truncate().apply(view, createTestContext({ target, protectFirst }));
          expect(result.view.entries).toEqual(expectedKept(view, target, protectFirst));
        },
      ),
      { numRuns: 300 },
    );
  });
});
