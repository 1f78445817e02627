import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyArbitrary } from "../../test/arbitraries.js";
import { createTestContext, createTestView } from "../../test/strategy-context.js";
import { historyPieces, summaryMessage, viewOf } from "../../test/truncation-views.js";
import type { Message } from "../messages/message.js";
import { clearToolResults } from "../strategies/clear-tool-results.js";
import { trimLongText } from "../strategies/trim-long-text.js";
import { truncate } from "../strategies/truncate.js";
import { leftForTruncation } from "./left-for-truncation.js";
import { runPipeline } from "./run-pipeline.js";
import type { StrategyContext, ViewDraft } from "./strategy.js";

const cases = fc.record({
  parts: fc.array(historyPieces, { minLength: 1, maxLength: 10 }),
  budgetPerMille: fc.integer({ min: 1, max: 1_000 }),
  targetShare: fc.integer({ min: 0, max: 100 }),
  forced: fc.boolean(),
  protectFirst: fc.integer({ min: 0, max: 3 }),
  maxChars: fc.integer({ min: 20, max: 400 }),
  noteIdentifiers: fc.constantFrom(0, 20, 200),
});

function contextFor(
  view: ViewDraft,
  history: readonly Message[],
  shares: { budgetPerMille: number; targetShare: number },
): StrategyContext {
  const budget = Math.max(1, Math.floor((view.tokens * shares.budgetPerMille) / 1_000));
  return createTestContext({ history, budget, target: Math.floor((budget * shares.targetShare) / 100) });
}

describe("leftForTruncation", () => {
  it("should leave, with a truncation after the trim, exactly the views the trim gives without leaving anything, over two compactions", async () => {
    await fc.assert(
      fc.asyncProperty(cases, async ({ parts, budgetPerMille, targetShare, forced, protectFirst, maxChars, noteIdentifiers }) => {
        const history = parts.flat();
        const view = viewOf(history);
        const first = { ...contextFor(view, history, { budgetPerMille, targetShare }), forced, protectFirst };
        // The second compaction, at half the budget, reads the first one's note (a summary) and merges into it.
        const second = { ...first, budget: Math.max(1, Math.floor(first.budget / 2)), target: Math.floor(first.target / 2) };
        // The default pipeline's order; only the trim's option differs.
        const pipeline = (truncateFollows: boolean) => [
          clearToolResults({ keepRecent: 1, truncateFollows: true, maxIdentifiers: 20 }),
          trimLongText({ maxChars, truncateFollows }),
          truncate({ noteIdentifiers }),
        ];
        const plainFirst = await runPipeline(view, pipeline(false), first);
        const leavingFirst = await runPipeline(view, pipeline(true), first);
        expect(leavingFirst.view.entries).toEqual(plainFirst.view.entries);
        const plainSecond = await runPipeline(plainFirst.view, pipeline(false), second);
        const leavingSecond = await runPipeline(leavingFirst.view, pipeline(true), second);
        expect(leavingSecond.view.entries).toEqual(plainSecond.view.entries);
      }),
      { numRuns: 200 },
    );
  });

  it("should trim as before a summary that a truncation keeps, however old", async () => {
    // Long old turns, a summary of the first messages, then more short exchanges than the note reads: a target
    // between the summary with the current turn and the exchanges' tokens has the truncation drop the exchanges
    // and keep the summary.
    const history = fc.tuple(historyArbitrary({ hugeOutputs: true, maxUnits: 3 }), fc.integer({ min: 20, max: 60 })).map(([old, turns]) => [
      ...old,
      summaryMessage(0),
      ...Array.from({ length: turns }, (_, turn): Message[] => [
        { role: "user", content: `next step ${turn}: look at src/app/module-${turn}.ts` },
        { role: "assistant", content: `done with src/app/module-${turn}.ts` },
      ]).flat(),
    ]);
    await fc.assert(
      fc.asyncProperty(history, fc.integer({ min: 0, max: 400 }), fc.integer({ min: 60, max: 200 }), async (messages, target, maxChars) => {
        const view = viewOf(messages);
        const context = createTestContext({ history: messages, budget: target + 1, target });
        const pipeline = (truncateFollows: boolean) => [trimLongText({ maxChars, truncateFollows }), truncate()];
        const plain = await runPipeline(view, pipeline(false), context);
        const leaving = await runPipeline(view, pipeline(true), context);
        expect(leaving.view.entries).toEqual(plain.view.entries);
      }),
      { numRuns: 100 },
    );
  });

  it("should leave the long texts of old units a truncation drops, and trim the newest ones and those its note reads", async () => {
    // Sixty turns, each a question and a long answer: a truncation to this target keeps the newest few turns.
    const history: Message[] = Array.from({ length: 60 }, (_, turn) => [
      { role: "user" as const, content: `task ${turn}: ${"check src/parser.ts ".repeat(8)}` },
      { role: "assistant" as const, content: `answer ${turn}: ${"the parser reads src/parser.ts line by line ".repeat(20)}` },
    ]).flat();
    const view = createTestView(history);
    const taskTokens = view.entries[0]!.tokens;
    const context = createTestContext({ history, budget: 8 * taskTokens, target: 4 * taskTokens });
    const trimmed = (await trimLongText({ maxChars: 200, truncateFollows: true }).apply(view, context)).view;
    const isAnswerTrimmed = (turn: number) => trimmed.entries[2 * turn + 1]!.edit !== undefined;
    expect(isAnswerTrimmed(0)).toBe(false);
    expect(isAnswerTrimmed(30)).toBe(false);
    expect(isAnswerTrimmed(59)).toBe(true);
    // The note reads twice the budget's tokens of the newest drops (the answers counted at nothing, as they may be
    // trimmed): sixteen tasks' worth, so the answers of the turns just before the newest few are trimmed as before.
    expect(isAnswerTrimmed(45)).toBe(true);
    const plain = await runPipeline(view, [trimLongText({ maxChars: 200 }), truncate({ noteIdentifiers: 50 })], context);
    const leaving = await runPipeline(
      view,
      [trimLongText({ maxChars: 200, truncateFollows: true }), truncate({ noteIdentifiers: 50 })],
      context,
    );
    expect(leaving.view.entries).toEqual(plain.view.entries);
    expect(leaving.steps[0]!.tokensAfter).toBeGreaterThan(plain.steps[0]!.tokensAfter);
  });

  it("should leave nothing of a unit that may not be dropped or holds a summary, however old", () => {
    const history: Message[] = [
      { role: "user", content: "pinned task", metadata: { pinned: true } },
      summaryMessage(0),
      ...Array.from({ length: 40 }, (_, turn) => ({ role: "user" as const, content: `turn ${turn} ${"words ".repeat(40)}` })),
    ];
    const view = createTestView(history);
    const isLeft = leftForTruncation(view, { reach: 10, protectFirst: 0, floorOf: (index) => view.entries[index]!.tokens });
    expect(isLeft(0)).toBe(false);
    expect(isLeft(1)).toBe(false);
    expect(isLeft(2)).toBe(true);
    expect(isLeft(history.length - 1)).toBe(false);
  });
});
