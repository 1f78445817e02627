import { describe, expect, it } from "vitest";
import { runAdapterConformance } from "../src/index.js";
import * as broken from "./__fixtures__/broken-adapters.js";

describe("runAdapterConformance", () => {
  it("should pass a healthy adapter", () => {
    const results = runAdapterConformance(broken.healthyAdapter);
    expect(results.filter((result) => result.status !== "pass").map((result) => `${result.name}: ${result.reason}`)).toEqual([]);
    expect(results.map((result) => result.name)).toEqual(["round-trip", "tool-pairs", "provider-rules", "malformed-input"]);
  });

  // No seed, default runs: each flaw must be caught on every run, whatever the generated histories.
  it.each([
    ["drops a tool result", broken.dropsToolResult, "round-trip", /round trip changed/],
    ["drops a tool result", broken.dropsToolResult, "provider-rules", /no result right after/],
    ["reorders", broken.reorders, "round-trip", /round trip changed/],
    ["leaks metadata", broken.leaksMetadata, "provider-rules", /metadata/],
    ["throws a TypeError on null", broken.throwsTypeErrorOnNull, "malformed-input", /TypeError/],
    ["emits an invalid id", broken.emitsInvalidId, "provider-rules", /functions\.read_file:0/],
    ["loses a content part", broken.losesContentPart, "round-trip", /image/],
  ] as const)("should catch an adapter that %s, in its %s check", (_flaw, adapter, check, reason) => {
    const result = runAdapterConformance(adapter).find((candidate) => candidate.name === check)!;
    expect(result.status).toBe("fail");
    expect(result.reason).toMatch(reason);
    expect(result.counterexample).toBeDefined();
  });
});
