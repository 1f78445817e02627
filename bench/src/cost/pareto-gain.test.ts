import { describe, expect, it } from "vitest";
import { isParetoGain, type ParetoFigures } from "./pareto-gain.js";

const incumbent: ParetoFigures = { costAnthropic: 0.286, retention: 0.905, refused: 0, pairFaults: 0, overBudget: 0 };

describe("isParetoGain", () => {
  it("should accept a candidate cheaper at the same retention, or keeping more at the same cost", () => {
    expect(isParetoGain({ ...incumbent, costAnthropic: 0.28 }, incumbent)).toBe(true);
    expect(isParetoGain({ ...incumbent, retention: 0.91 }, incumbent)).toBe(true);
    expect(isParetoGain({ ...incumbent, costAnthropic: 0.28, retention: 0.91 }, incumbent)).toBe(true);
  });

  it("should refuse a move along the frontier and an equal result", () => {
    expect(isParetoGain({ ...incumbent, costAnthropic: 0.289, retention: 0.917 }, incumbent)).toBe(false);
    expect(isParetoGain({ ...incumbent, costAnthropic: 0.273, retention: 0.803 }, incumbent)).toBe(false);
    expect(isParetoGain(incumbent, incumbent)).toBe(false);
  });

  it("should refuse a candidate with a pair fault, an over-budget view or more refusals than the incumbent", () => {
    const better = { ...incumbent, costAnthropic: 0.2, retention: 0.95 };
    expect(isParetoGain({ ...better, pairFaults: 1 }, incumbent)).toBe(false);
    expect(isParetoGain({ ...better, overBudget: 1 }, incumbent)).toBe(false);
    expect(isParetoGain({ ...better, refused: 1 }, incumbent)).toBe(false);
    expect(isParetoGain({ ...better, refused: 23 }, { ...incumbent, refused: 23 })).toBe(true);
  });
});
