import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coversPoint, splitFrontier, type TunePoint } from "./tune-frontier.js";

// Few distinct values, so equal costs, equal retentions and equal points are common.
const pointArbitrary: fc.Arbitrary<TunePoint> = fc.record({
  cost: fc.integer({ min: 1, max: 12 }).map((tenths) => tenths / 10),
  retention: fc.integer({ min: 0, max: 10 }).map((tenths) => tenths / 10),
  faults: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 3 })),
});
const pointsArbitrary = fc.array(pointArbitrary, { maxLength: 30 });

/** Strictly better on one axis and no worse on the other. */
const dominates = (first: TunePoint, second: TunePoint): boolean =>
  coversPoint(first, second) && (first.cost < second.cost || first.retention > second.retention);

describe("splitFrontier", () => {
  it("should put every point in exactly one of the frontier, the dominated and the faulty", () => {
    fc.assert(
      fc.property(pointsArbitrary, (points) => {
        const { frontier, dominated, faulty } = splitFrontier(points);
        expect([...frontier, ...dominated, ...faulty].sort((a, b) => points.indexOf(a) - points.indexOf(b))).toEqual(points);
        expect(new Set([...frontier, ...dominated, ...faulty]).size).toBe(points.length);
      }),
    );
  });

  it("should have no dominated point on the frontier, and no two frontier points with the same figures", () => {
    fc.assert(
      fc.property(pointsArbitrary, (points) => {
        const { frontier } = splitFrontier(points);
        const sound = points.filter((point) => point.faults === 0);
        for (const point of frontier) {
          expect(point.faults).toBe(0);
          expect(sound.some((other) => dominates(other, point))).toBe(false);
          expect(frontier.filter((other) => other !== point && coversPoint(other, point))).toEqual([]);
        }
      }),
    );
  });

  it("should exclude only points that are faulty or covered by a frontier point", () => {
    fc.assert(
      fc.property(pointsArbitrary, (points) => {
        const { frontier, dominated, faulty } = splitFrontier(points);
        for (const point of faulty) expect(point.faults).toBeGreaterThan(0);
        for (const point of dominated) {
          expect(point.faults).toBe(0);
          expect(frontier.some((other) => coversPoint(other, point))).toBe(true);
        }
      }),
    );
  });

  it("should order the frontier cheapest first with retention rising", () => {
    fc.assert(
      fc.property(pointsArbitrary, (points) => {
        const { frontier } = splitFrontier(points);
        for (const [index, point] of frontier.entries()) {
          if (index === 0) continue;
          expect(point.cost).toBeGreaterThan(frontier[index - 1]!.cost);
          expect(point.retention).toBeGreaterThan(frontier[index - 1]!.retention);
        }
      }),
    );
  });

  it("should keep the first found of equal points, and exclude a faulty point however good its figures", () => {
    const first = { cost: 0.3, retention: 0.9, faults: 0 };
    const again = { cost: 0.3, retention: 0.9, faults: 0 };
    const refused = { cost: 0.1, retention: 1, faults: 1 };
    expect(splitFrontier([first, refused, again])).toEqual({ frontier: [first], dominated: [again], faulty: [refused] });
    expect(splitFrontier([first, refused, again]).frontier[0]).toBe(first);
  });
});
