// One trivial failure must not hide the others: each distinct failure is reported, shrunk, with its fix.
import { describe, expect, it } from "vitest";
import { DEFAULT_RUNS, formatReport, PropertyViolation, replayCounterexample, runConformance } from "../src/index.js";
import { createSeed } from "../src/runner/run-conformance.js";
import { naiveKeepLast } from "./__fixtures__/naive-keep-last.js";

describe("a report on a naive keep-last-N manager", () => {
  const seed = createSeed();

  it(`should show its split tool unit at once, beside the budget-1 failure (seed ${seed})`, async () => {
    const report = await runConformance(naiveKeepLast, { only: ["pairing"], runs: DEFAULT_RUNS, seed });
    const pairing = report.checks.find((check) => check.name === "pairing")!;
    expect(pairing.status).toBe("fail");
    const split = pairing.failures?.find((failure) => /breaks tool pairs/.test(failure.reason));
    expect(split, JSON.stringify(pairing.failures?.map((failure) => failure.reason))).toBeDefined();
    expect(split!.fix).toMatch(/tool unit whole/);
    // Shrunk to a few small messages, and it replays in the regime it was found in.
    const input = split!.counterexample.input as { history: unknown[] };
    expect(input.history.length).toBeLessThanOrEqual(6);
    await expect(replayCounterexample(naiveKeepLast, JSON.parse(JSON.stringify(split!.counterexample)))).rejects.toThrow(PropertyViolation);
    // Every failure says what to fix, in the printed report too.
    for (const failure of pairing.failures!) expect(failure.fix.length).toBeGreaterThan(20);
    expect(formatReport(report)).toContain("Fix: Keep or drop each tool unit whole");
  });
});
