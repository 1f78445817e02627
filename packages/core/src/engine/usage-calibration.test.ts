import { describe, expect, it } from "vitest";
import { UsageCalibration } from "./usage-calibration.js";

describe("UsageCalibration", () => {
  it("should shrink budgets when the provider counts more than the manager", () => {
    const calibration = new UsageCalibration();
    for (let report = 0; report < 8; report += 1) calibration.record(1_500, 1_000);
    expect(calibration.apply(1_000)).toBeLessThan(700);
  });

  it("should lift a budget by at most 2×, and never past the cap", () => {
    const calibration = new UsageCalibration();
    for (let report = 0; report < 20; report += 1) calibration.record(1, 1_000);
    expect(calibration.apply(1_000)).toBeGreaterThan(1_900);
    expect(calibration.apply(1_000)).toBeLessThanOrEqual(2_000);
    expect(calibration.apply(1_000, 1_200)).toBe(1_200);
    // A cap below the budget never shrinks it: a cap bounds the lift, and the budget was capped already.
    expect(calibration.apply(1_000, 800)).toBe(1_000);
  });
});
