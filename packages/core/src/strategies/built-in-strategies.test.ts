import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyArbitrary } from "../../test/arbitraries.js";
import { memoryContext } from "../../test/memory-context.js";
import { createRepairedTestView, createTestContext, historyIndices } from "../../test/strategy-context.js";
import { ContextConfigError } from "../errors.js";
import type { Strategy, ViewDraft } from "../pipeline/strategy.js";
import { isProtectedEntry } from "../pipeline/view-draft.js";
import { checkToolPairs } from "../units/check-tool-pairs.js";
import {
  BUILT_IN_STRATEGIES,
  BUILT_IN_STRATEGY_NAMES,
  createBuiltInStrategy,
  DEFAULT_PIPELINE,
  isBuiltInStrategyName,
} from "./built-in-strategies.js";

describe("built-in strategies", () => {
  describe("BUILT_IN_STRATEGIES", () => {
    it("should list the built-ins in their default order", () => {
      expect(BUILT_IN_STRATEGIES).toEqual(["clear-tool-results", "trim-long-text", "truncate", "shorten-to-fit"]);
    });

    it("should clear every tool result but the newest (a truncate follows), note what the truncation drops and end with stubs that still name what they held", () => {
      expect(DEFAULT_PIPELINE).toEqual([
        { name: "clear-tool-results", options: { keepRecent: 1, truncateFollows: true, maxIdentifiers: 200, skipShownIdentifiers: true } },
        { name: "trim-long-text", options: { truncateFollows: true } },
        { name: "truncate", options: { noteIdentifiers: 200, budgetTokensPerIdentifier: 240 } },
        {
          name: "shorten-to-fit",
          options: { maxIdentifiers: 60, budgetTokensPerIdentifier: 120, maxTextChars: 200, maxArgumentChars: 80 },
        },
      ]);
    });
  });

  describe("isBuiltInStrategyName", () => {
    it("should accept exactly the built-in names", () => {
      expect(BUILT_IN_STRATEGY_NAMES.every(isBuiltInStrategyName)).toBe(true);
      expect(BUILT_IN_STRATEGY_NAMES).toEqual([
        ...BUILT_IN_STRATEGIES,
        "sliding-window",
        "importance",
        "microcompact",
        "offload-tool-results",
      ]);
      expect([undefined, 1, "summary", "Truncate", "toString"].some(isBuiltInStrategyName)).toBe(false);
    });
  });

  describe("createBuiltInStrategy", () => {
    it("should create each strategy under its own name", () => {
      for (const name of BUILT_IN_STRATEGY_NAMES) expect(createBuiltInStrategy(name).name).toBe(name);
    });

    it("should pass the options on", () => {
      expect(() => createBuiltInStrategy("clear-tool-results", { keepRecent: -1 })).toThrow(ContextConfigError);
      expect(() => createBuiltInStrategy("sliding-window", { windowSize: 0 })).toThrow(ContextConfigError);
      expect(createBuiltInStrategy("microcompact", { idleMs: null }).idleAfterMs).toBeUndefined();
    });

    it("should reject an unknown name from an untyped caller", () => {
      expect(() => createBuiltInStrategy("summary" as "truncate")).toThrow(ContextConfigError);
    });
  });
});

/** Every entry that invariant 5 protects in `before` is still in `after`, and unchanged unless it may be altered. */
function keepsProtectedEntries(before: ViewDraft, after: ViewDraft, protectFirst: number): boolean {
  const afterBySource = new Map(after.entries.map((entry) => [entry.source, entry]));
  return before.entries.every((entry, index) => {
    const protection = isProtectedEntry(before, index, protectFirst);
    const kept = afterBySource.get(entry.source);
    if (!protection.canDrop && kept === undefined) return false;
    return protection.canAlter || kept === undefined || kept.message === entry.message;
  });
}

/** Tokens saved by the last change (a dropped unit, or one shortened entry), or undefined when nothing changed. */
function lastChangeSaving(before: ViewDraft, after: ViewDraft): number | undefined {
  const afterBySource = new Map(after.entries.map((entry) => [entry.source, entry]));
  for (let index = before.entries.length - 1; index >= 0; index -= 1) {
    const entry = before.entries[index]!;
    const kept = afterBySource.get(entry.source);
    if (kept !== undefined && kept.message !== entry.message) return entry.tokens - kept.tokens;
    if (kept === undefined) {
      const unit = before.units.find((candidate) => candidate.start <= index && index < candidate.end)!;
      return before.entries.slice(unit.start, unit.end).reduce((total, dropped) => total + dropped.tokens, 0);
    }
  }
  return undefined;
}

/**
 * What undoing one change gives back, for a strategy that drops by score: its last drop is not the newest
 * unit, so the check is that some single drop was needed (the largest one puts the view back above).
 */
function largestChangeSaving(before: ViewDraft, after: ViewDraft): number | undefined {
  const kept = new Set(after.entries.map((entry) => entry.source));
  const savings = before.units
    .filter((unit) => before.entries.slice(unit.start, unit.end).some((entry) => !kept.has(entry.source)))
    .map((unit) => before.entries.slice(unit.start, unit.end).reduce((total, dropped) => total + dropped.tokens, 0));
  return savings.length === 0 ? undefined : Math.max(...savings);
}

const strategyArbitrary: fc.Arbitrary<Strategy> = fc.oneof(
  fc.nat({ max: 6 }).map((keepRecent) => createBuiltInStrategy("clear-tool-results", { keepRecent })),
  fc.integer({ min: 20, max: 400 }).map((maxChars) => createBuiltInStrategy("trim-long-text", { maxChars })),
  fc.nat({ max: 4 }).map((protectFirst) => createBuiltInStrategy("truncate", { protectFirst })),
  fc.nat({ max: 6 }).map((keepRecent) => createBuiltInStrategy("microcompact", { keepRecent, isClearable: () => true })),
  fc.constant(createBuiltInStrategy("importance")),
  fc.integer({ min: 1, max: 200 }).map((minTokens) => createBuiltInStrategy("offload-tool-results", { minTokens, keepRecent: 0 })),
);

// A sliding window keeps to its message count whatever the target, so it joins only the invariant property.
const anyStrategyArbitrary: fc.Arbitrary<Strategy> = fc.oneof(
  strategyArbitrary,
  fc.integer({ min: 1, max: 12 }).map((windowSize) => createBuiltInStrategy("sliding-window", { windowSize })),
);

describe("built-in strategies (properties)", () => {
  it("should keep tool pairs, history order and protected entries, and never grow the view", async () => {
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary({ broken: true, hugeOutputs: true, maxUnits: 10 }),
        anyStrategyArbitrary,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat({ max: 4 }),
        async (history, strategy, targetRatio, protectFirst) => {
          const view = createRepairedTestView(history);
          const context = createTestContext({ target: Math.floor(view.tokens * targetRatio), protectFirst, history });
          const result = await strategy.apply(view, context);
          const indices = historyIndices(result.view);
          expect(checkToolPairs(result.view.entries.map((entry) => entry.message))).toEqual([]);
          expect(indices.every((index, position) => position === 0 || index > indices[position - 1]!)).toBe(true);
          expect(result.view.tokens).toBeLessThanOrEqual(view.tokens);
          expect(keepsProtectedEntries(view, result.view, protectFirst)).toBe(true);
          if (!result.applied) expect(result.view).toBe(view);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("should stop as soon as the view is at or below the target: undoing its last change puts it back above", async () => {
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary({ hugeOutputs: true }),
        strategyArbitrary,
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (history, strategy, targetRatio) => {
          const view = createRepairedTestView(history);
          const target = Math.floor(view.tokens * targetRatio);
          const result = await strategy.apply(view, createTestContext({ target }));
          const saving = strategy.name === "importance" ? largestChangeSaving(view, result.view) : lastChangeSaving(view, result.view);
          if (saving !== undefined) expect(result.view.tokens + saving).toBeGreaterThan(target);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("createBuiltInStrategy options", () => {
  it("should reject an unknown option key instead of ignoring it", () => {
    expect(() => createBuiltInStrategy("clear-tool-results", { keepRecnt: 2 } as never)).toThrow(/keepRecnt: unknown key/);
    expect(() => createBuiltInStrategy("sliding-window", { size: 2 } as never)).toThrow(/size: unknown key/);
  });

  it("should refuse an unknown option key from a config's strategy list, naming the strategy and the key", async () => {
    const attempt = memoryContext({ strategies: [{ name: "sliding-window", options: { windowSize: 8, sizee: 2 } }] });
    const error = await attempt.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ContextConfigError);
    expect(error).toMatchObject({ code: "CONTEXT_CONFIG", module: "sliding-window" });
    expect((error as ContextConfigError).issues).toEqual([{ path: "sizee", message: expect.stringContaining("unknown key") }]);
  });

  it("should refuse a non-object options value", () => {
    expect(() => createBuiltInStrategy("truncate", [] as never)).toThrow(/options: must be an object of options/);
  });
});
