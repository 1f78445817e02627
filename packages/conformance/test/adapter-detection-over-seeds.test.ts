// Each broken adapter must be caught, by the check its flaw breaks, in every one of 20 fresh seeds at the default runs.
import { describe, expect, it } from "vitest";
import { runAdapterConformance, runAdapterLoopConformance } from "../src/index.js";
import * as broken from "./__fixtures__/broken-adapters.js";
import { describeMisses, recordDetection, sweep, sweepSeeds } from "./__fixtures__/seed-sweep.js";

const seeds = sweepSeeds();
console.info(`adapter detection sweep seeds (replay with CTXKIT_CONFORMANCE_SEEDS): ${seeds.join(",")}`);

const ADAPTER_CASES = [
  { flaw: "drops a tool result", adapter: broken.dropsToolResult, check: "round-trip" },
  { flaw: "reorders messages", adapter: broken.reorders, check: "round-trip" },
  { flaw: "leaks metadata to the provider", adapter: broken.leaksMetadata, check: "provider-rules" },
  { flaw: "throws a TypeError on a null entry", adapter: broken.throwsTypeErrorOnNull, check: "malformed-input" },
  { flaw: "emits a tool-call id the provider rejects", adapter: broken.emitsInvalidId, check: "provider-rules" },
  { flaw: "loses a content part", adapter: broken.losesContentPart, check: "round-trip" },
  { flaw: "drops is_error on a result given as parts", adapter: broken.dropsToolErrorOnParts, check: "round-trip" },
] as const;

const LOOP_CASES = [
  { flaw: "stores a turn before checking the provider's usage", adapter: broken.storesBeforeCheckingUsage, check: "loop-usage" },
  { flaw: "keeps the turn of a call the provider rejected", adapter: broken.keepsTurnOnRejection, check: "loop-too-long" },
  { flaw: "duplicates the history when the caller switches input", adapter: broken.duplicatesOnInputSwitch, check: "loop-input-switch" },
  { flaw: "never recovers from a context-length rejection", adapter: broken.neverRecoversOverflow, check: "loop-over-counting" },
] as const;

describe("the adapter suite catches each broken adapter in every seed", () => {
  for (const { flaw, adapter, check } of ADAPTER_CASES) {
    it(`should catch the adapter that ${flaw} (${check}) in every seed`, async () => {
      const result = await sweep(seeds, async (seed) => {
        const results = runAdapterConformance(adapter, { seed });
        return results.find((candidate) => candidate.name === check)?.status === "fail";
      });
      recordDetection("adapters", flaw, result);
      expect(result.caught, describeMisses(result)).toBe(result.total);
    });
  }
});

describe("the adapter loop checks catch each broken loop in every seed", () => {
  for (const { flaw, adapter, check } of LOOP_CASES) {
    it(`should catch the loop that ${flaw} (${check}) in every seed`, async () => {
      const result = await sweep(seeds, async (seed) => {
        const results = await runAdapterLoopConformance(adapter, { seed });
        return results.find((candidate) => candidate.name === check)?.status === "fail";
      });
      recordDetection("adapters", flaw, result);
      expect(result.caught, describeMisses(result)).toBe(result.total);
    });
  }
});
