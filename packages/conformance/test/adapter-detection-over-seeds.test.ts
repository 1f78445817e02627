// Each broken adapter must be caught, by the check its flaw breaks, in every one of 20 fresh seeds at the default runs.
import { describe, expect, it } from "vitest";
import { runAdapterConformance } from "../src/index.js";
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
