import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { meetsConstraint, recommendConfiguration, resolveConstraint, type TuneConstraint } from "./recommend-configuration.js";
import { splitFrontier, type TunePoint } from "./tune-frontier.js";

const pointArbitrary: fc.Arbitrary<TunePoint> = fc.record({
  cost: fc.integer({ min: 1, max: 12 }).map((tenths) => tenths / 10),
  retention: fc.integer({ min: 0, max: 10 }).map((tenths) => tenths / 10),
  faults: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 3 })),
});
const constraintArbitrary: fc.Arbitrary<TuneConstraint> = fc.oneof(
  fc.integer({ min: 0, max: 10 }).map((tenths) => ({ kind: "min-retention" as const, value: tenths / 10 })),
  fc.integer({ min: 1, max: 12 }).map((tenths) => ({ kind: "max-cost" as const, value: tenths / 10 })),
  fc.constant({ kind: "balance" as const }),
);

/** Whether `other` would have been a better answer than `chosen` under `constraint`. */
const isBetter = (other: TunePoint, chosen: TunePoint, constraint: TuneConstraint): boolean =>
  constraint.kind === "max-cost" ? other.retention > chosen.retention : other.cost < chosen.cost;

describe("recommendConfiguration", () => {
  it("should recommend a frontier point that meets the constraint, with no sound point meeting it better", () => {
    fc.assert(
      fc.property(fc.array(pointArbitrary, { maxLength: 30 }), constraintArbitrary, (points, constraint) => {
        const { frontier } = splitFrontier(points);
        const recommended = recommendConfiguration(frontier, constraint);
        // The balance is a minimum retention five points below the best retention of every sound point.
        const resolved = resolveConstraint(
          points.filter((point) => point.faults === 0),
          constraint,
        );
        const candidates = points.filter((point) => point.faults === 0 && meetsConstraint(point, resolved));
        if (recommended === undefined) {
          expect(candidates).toEqual([]);
          return;
        }
        expect(frontier).toContain(recommended);
        expect(meetsConstraint(recommended, resolved)).toBe(true);
        expect(candidates.filter((point) => isBetter(point, recommended, constraint))).toEqual([]);
      }),
    );
  });

  it("should take the cheapest point at or above a minimum retention", () => {
    const frontier = [
      { cost: 0.2, retention: 0.8, faults: 0 },
      { cost: 0.3, retention: 0.95, faults: 0 },
      { cost: 0.5, retention: 0.99, faults: 0 },
    ];
    expect(recommendConfiguration(frontier, { kind: "min-retention", value: 0.95 })).toBe(frontier[1]);
    expect(recommendConfiguration(frontier, { kind: "max-cost", value: 0.4 })).toBe(frontier[1]);
    expect(recommendConfiguration(frontier, { kind: "max-cost", value: 0.1 })).toBeUndefined();
    expect(recommendConfiguration(frontier, { kind: "min-retention", value: 1 })).toBeUndefined();
    // The cheapest within five points of 0.99.
    expect(recommendConfiguration(frontier, { kind: "balance" })).toBe(frontier[1]);
    expect(recommendConfiguration(frontier.slice(0, 1), { kind: "balance" })).toBe(frontier[0]);
  });
});
