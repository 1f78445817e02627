// Each broken strategy must be caught in every one of 20 fresh seeds, at the default runs.
import { describe, expect, it } from "vitest";
import { DEFAULT_RUNS, runStrategyConformance } from "../src/index.js";
import * as broken from "./__fixtures__/broken-strategies.js";
import { describeMisses, recordDetection, sweep, sweepSeeds } from "./__fixtures__/seed-sweep.js";

const seeds = sweepSeeds();
console.info(`strategy detection sweep seeds (replay with CTXKIT_CONFORMANCE_SEEDS): ${seeds.join(",")}`);

const STRATEGY_CASES = [
  { flaw: "drops instructions", strategy: broken.dropsInstructions },
  { flaw: "splits units", strategy: broken.splitsUnits },
  { flaw: "drops a different unit on each call", strategy: broken.dropsDifferentUnits },
  { flaw: "rewrites without a recorded edit", strategy: broken.rewritesSilently },
  { flaw: "rewrites one state key that two workers share", strategy: broken.rewritesOneSharedKey },
  { flaw: "looks for another API's image part type, and so never applies", strategy: broken.dropsImagesOfAnotherType },
  { flaw: "takes every content part for text", strategy: broken.trimsPartsAsText },
  { flaw: "shortens by characters while adding tokens", strategy: broken.shortensByCharacters },
  { flaw: "leaves a text part with no text in place of each non-text part", strategy: broken.corruptsNonTextParts },
];

describe("the strategy check catches each broken strategy in every seed", () => {
  for (const { flaw, strategy } of STRATEGY_CASES) {
    it(`should catch the strategy that ${flaw} in every seed`, async () => {
      const result = await sweep(seeds, async (seed) => {
        const check = await runStrategyConformance(strategy, { runs: DEFAULT_RUNS, seed, shrink: false });
        return check.status === "fail";
      });
      recordDetection("strategies", flaw, result);
      expect(result.caught, describeMisses(result)).toBe(result.total);
    });
  }
});
