// Each broken module must be caught by its property in every one of 20 fresh seeds, at the default runs.
import { describe, expect, it } from "vitest";
import { DEFAULT_RUNS, runConformance } from "../src/index.js";
import { MANAGER_CASES } from "./__fixtures__/broken-cases.js";
import { describeMisses, recordDetection, sweep, sweepSeeds } from "./__fixtures__/seed-sweep.js";

const seeds = sweepSeeds();
console.info(`detection sweep seeds (replay with CTXKIT_CONFORMANCE_SEEDS): ${seeds.join(",")}`);

describe("the kit catches each broken module in every seed", () => {
  for (const { flaw, module, property, options } of MANAGER_CASES) {
    it(`should catch the module that ${flaw} (${property}) in every seed`, async () => {
      const result = await sweep(seeds, async (seed) => {
        const report = await runConformance(module, { ...options, only: [property], runs: DEFAULT_RUNS, seed, shrink: false });
        return report.checks.find((check) => check.name === property)?.status === "fail";
      });
      recordDetection("managers", flaw, result);
      expect(result.caught, describeMisses(result)).toBe(result.total);
    });
  }
});
