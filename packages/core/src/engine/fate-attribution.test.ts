import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ViewEntry } from "../pipeline/strategy.js";
import { createViewDraft } from "../pipeline/view-draft.js";
import { userMessage } from "../testing/index.js";
import { FateAttribution } from "./fate-attribution.js";

const history = Array.from({ length: 40 }, (_, index) => userMessage(`m${index}`));
const entry = (index: number): ViewEntry => ({ message: history[index]!, tokens: 1, source: { kind: "history", index } });
const draftOf = (indexes: readonly number[]) => createViewDraft(indexes.map(entry));

/** The per-index record the runs stand for: who removed each index last. */
function removedByIndex(attribution: FateAttribution): Map<number, string> {
  const byIndex = new Map<number, string>();
  for (const run of attribution.removed) for (let index = run.from; index <= run.to; index += 1) byIndex.set(index, run.strategy);
  return byIndex;
}

describe("FateAttribution", () => {
  it("should keep what each strategy removed as runs, a dropped stretch of the history as one", () => {
    const attribution = new FateAttribution();
    const all = Array.from({ length: 40 }, (_, index) => index);
    attribution.note("truncate", draftOf(all), draftOf([0, 7, ...all.slice(30)]));
    expect(attribution.removed).toEqual([
      { from: 1, to: 6, strategy: "truncate" },
      { from: 8, to: 29, strategy: "truncate" },
    ]);
  });

  it("should record for each index the strategy that removed it last, over views that grow back, as a map per index would", () => {
    // Some steps keep their entries out of history order, as a strategy breaking invariant 2 would.
    const step = fc.tuple(
      fc.constantFrom("truncate", "sliding-window", "importance"),
      fc.uniqueArray(fc.integer({ min: 0, max: 39 })),
      fc.boolean(),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 8 }), (steps) => {
        const attribution = new FateAttribution();
        const expected = new Map<number, string>();
        for (const [strategy, kept, isInOrder] of steps) {
          // Each step starts from the whole history again (a view grown back for a larger budget) and keeps `kept`.
          const before = Array.from({ length: 40 }, (_, index) => index);
          const after = isInOrder ? [...kept].sort((first, second) => first - second) : kept;
          for (const index of before) if (!after.includes(index)) expected.set(index, strategy);
          attribution.note(strategy, draftOf(before), draftOf(after));
          const runs = attribution.removed;
          for (let position = 1; position < runs.length; position += 1)
            expect(runs[position]!.from).toBeGreaterThan(runs[position - 1]!.to);
        }
        expect(removedByIndex(attribution)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it("should leave the original untouched when a clone notes more", () => {
    const attribution = new FateAttribution();
    attribution.note("truncate", draftOf([0, 1, 2, 3]), draftOf([0, 3]));
    const copy = attribution.clone();
    copy.note("sliding-window", draftOf([0, 3]), draftOf([3]));
    expect(attribution.removed).toEqual([{ from: 1, to: 2, strategy: "truncate" }]);
    expect(copy.removed).toEqual([
      { from: 0, to: 0, strategy: "sliding-window" },
      { from: 1, to: 2, strategy: "truncate" },
    ]);
  });
});
