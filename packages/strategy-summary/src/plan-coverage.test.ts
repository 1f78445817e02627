import type { Message } from "@ctxkit/core";
import { checkToolPairs, findToolUnits } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assistant, call, pinned, result, system, toolUnit, turn, user } from "../test/messages.js";
import { recordingSummarizer } from "../test/recording-summarizer.js";
import { createFreshView, createTestContext, describeView, freezeHistory } from "../test/strategy-context.js";
import { planCoverage } from "./plan-coverage.js";
import { createSummaryStrategy } from "./summary-strategy.js";

/** Applies a summary that may keep `keepRecentTokens` verbatim, with small thresholds so it always tries. */
async function summarize(
  messages: readonly Message[],
  keepRecentTokens: number,
  protectFirst = 0,
  summarizeCurrentTurn = true,
  target?: number,
) {
  const history = freezeHistory(messages);
  const summarizer = recordingSummarizer();
  const strategy = createSummaryStrategy({ summarizer, keepRecentTokens, minNewTokens: 1, maxSummaryTokens: 20, summarizeCurrentTurn });
  const result = await strategy.apply(
    createFreshView(history),
    createTestContext({ history, protectFirst, ...(target === undefined ? {} : { target }) }),
  );
  return { ...result, layout: describeView(result.view), summarizer };
}

describe("planCoverage", () => {
  describe("never inside a unit", () => {
    const unitArbitrary: fc.Arbitrary<Message[]> = fc.oneof(
      fc.constant<Message[]>([user("question")]),
      fc.constant<Message[]>([assistant("answer")]),
      fc.integer({ min: 1, max: 3 }).chain((calls) =>
        fc.integer({ min: 1, max: 1_000_000 }).map((seed) => {
          const ids = Array.from({ length: calls }, (_, index) => `c${seed}_${index}`);
          return [call("read_file", ids), ...ids.map((id) => result(id, "x".repeat(seed % 900)))];
        }),
      ),
    );

    it("should keep or cover every unit whole, and keep the view paired, whatever keepRecentTokens", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(unitArbitrary, { minLength: 1, maxLength: 25 }),
          fc.integer({ min: 0, max: 3_000 }),
          async (units, keepRecentTokens) => {
            const history = units.flat();
            const { view } = await summarize(history, keepRecentTokens);
            const messages = view.entries.map((entry) => entry.message);
            expect(checkToolPairs(messages)).toEqual([]);
            const kept = new Set(view.entries.flatMap((entry) => (entry.source.kind === "history" ? [entry.source.index] : [])));
            for (const unit of findToolUnits(history)) {
              const present = Array.from({ length: unit.end - unit.start }, (_, offset) => kept.has(unit.start + offset));
              expect(new Set(present).size).toBe(1);
            }
          },
        ),
      );
    });
  });

  describe("cut", () => {
    it("should cut inside one long tool-calling turn, keeping the request and the newest units verbatim", async () => {
      const history = [
        system("rules"),
        user("migrate the database"),
        ...Array.from({ length: 10 }, (_, index) => toolUnit(`m${index}`, 400)).flat(),
      ];
      const { layout, applied, summarizer } = await summarize(history, 300);
      expect(applied).toBe(true);
      // Each unit is about 120 tokens: the last two fit 300, the eight before them are summarized, and
      // the summary stands where they began, after the request.
      expect(layout).toEqual([0, 1, "S", 18, 19, 20, 21]);
      expect(summarizer.requests[0]!.messages).toHaveLength(16);
    });

    it("should keep the whole current turn verbatim with summarizeCurrentTurn: false", async () => {
      const history = [
        system("rules"),
        ...turn(1, 4),
        user("migrate the database"),
        ...Array.from({ length: 10 }, (_, index) => toolUnit(`m${index}`, 400)).flat(),
      ];
      const { layout } = await summarize(history, 0, 0, false);
      expect(layout).toEqual([0, "S", ...Array.from({ length: 21 }, (_, offset) => 11 + offset)]);
    });

    it("should keep fewer recent units than keepRecentTokens allows when the view would stay above the target", async () => {
      const history = [user("migrate the database"), ...Array.from({ length: 10 }, (_, index) => toolUnit(`m${index}`, 400)).flat()];
      const roomy = await summarize(history, 600);
      const tight = await summarize(history, 600, 0, true, 400);
      expect(roomy.view.tokens).toBeGreaterThan(400);
      expect(tight.view.tokens).toBeLessThanOrEqual(400);
      expect(tight.layout.slice(0, 2)).toEqual([0, "S"]);
      expect(tight.layout.length).toBeLessThan(roomy.layout.length);
      expect(tight.layout.length).toBeGreaterThan(3);
    });

    it("should keep the last unit verbatim even when it alone exceeds keepRecentTokens", async () => {
      const history = [user("go"), ...toolUnit("a"), ...toolUnit("b"), ...toolUnit("huge", 8_000)];
      const { layout } = await summarize(history, 10);
      expect(layout).toEqual([0, "S", 5, 6]);
    });

    it("should keep instructions, pinned messages and the first protectFirst messages verbatim, in their order, after the summary", async () => {
      const history = [
        user("task statement"),
        ...turn(1),
        system("mid-session instruction"),
        ...turn(2),
        pinned(assistant("remember this")),
        ...turn(3),
        user("latest request"),
        ...toolUnit("z"),
      ];
      const { layout } = await summarize(history, 0, 1);
      const indexOf = (message: string) => history.findIndex((candidate) => candidate.content === message);
      expect(layout).toEqual([
        0,
        "S",
        indexOf("mid-session instruction"),
        indexOf("remember this"),
        indexOf("latest request"),
        history.length - 2,
        history.length - 1,
      ]);
    });

    it("should cover nothing when everything before the last unit is protected", () => {
      const view = createFreshView(freezeHistory([system("rules"), user("go"), ...toolUnit("a")]));
      expect(
        planCoverage(view, { protectFirst: 0, keepRecentTokens: 0, summarizeCurrentTurn: true, target: 0, summaryTokens: 0 }).coveredUnits
          .size,
      ).toBe(0);
    });
  });
});
