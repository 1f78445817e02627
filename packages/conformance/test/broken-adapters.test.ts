import { describe, expect, it } from "vitest";
import { runAdapterConformance, runAdapterLoopConformance } from "../src/index.js";
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
    ["drops is_error on a result given as parts", broken.dropsToolErrorOnParts, "round-trip", /round trip changed/],
  ] as const)("should catch an adapter that %s, in its %s check", (_flaw, adapter, check, reason) => {
    const result = runAdapterConformance(adapter).find((candidate) => candidate.name === check)!;
    expect(result.status).toBe("fail");
    expect(result.reason).toMatch(reason);
    expect(result.counterexample).toBeDefined();
  });
});

describe("runAdapterLoopConformance", () => {
  it("should pass a healthy loop", async () => {
    const results = await runAdapterLoopConformance(broken.healthyAdapter);
    expect(results.filter((result) => result.status !== "pass").map((result) => `${result.name}: ${result.reason}`)).toEqual([]);
    expect(results.map((result) => result.name)).toEqual(["loop-usage", "loop-too-long", "loop-input-switch", "loop-over-counting"]);
  });

  it("should skip every loop check, saying why, for an adapter with no loop", async () => {
    const { loop: _none, ...withoutLoop } = broken.healthyAdapter;
    const results = await runAdapterLoopConformance(withoutLoop);
    expect(results.map((result) => result.status)).toEqual(["skip", "skip", "skip", "skip"]);
    expect(results[0]!.reason).toMatch(/gives no loop wrapper/);
  });

  it("should skip the input switch, saying why, for a loop that takes new messages only", async () => {
    const results = await runAdapterLoopConformance({ ...broken.healthyAdapter, loop: { ...broken.healthyLoop, inputs: ["new"] } });
    expect(results.find((result) => result.name === "loop-input-switch")).toMatchObject({
      status: "skip",
      reason: expect.stringMatching(/only new/),
    });
  });

  it("should skip the over-counting check, saying why, for a loop whose provider does not answer per request", async () => {
    const results = await runAdapterLoopConformance({
      ...broken.healthyAdapter,
      loop: { ...broken.healthyLoop, repliesPerRequest: false },
    });
    expect(results.find((result) => result.name === "loop-over-counting")).toMatchObject({
      status: "skip",
      reason: expect.stringMatching(/replyTo\(reply, request\)/),
    });
  });

  // No seed, default runs: each flaw must be caught on every run, whatever the generated scripts.
  it.each([
    ["stores before checking usage", "loop-usage", broken.storesBeforeCheckingUsage, /rejected though the provider answered/],
    ["keeps a rejected call's turn", "loop-too-long", broken.keepsTurnOnRejection, /rejected, but the history stored does not agree/],
    ["duplicates the history on an input switch", "loop-input-switch", broken.duplicatesOnInputSwitch, /history stored does not agree/],
    [
      "never recovers from an overflow",
      "loop-over-counting",
      broken.neverRecoversOverflow,
      /rejected though the provider's window holds the minimal view/,
    ],
  ] as const)("should catch a loop that %s, in its %s check", async (_flaw, check, adapter, reason) => {
    const result = (await runAdapterLoopConformance(adapter)).find((candidate) => candidate.name === check)!;
    expect(result.status).toBe("fail");
    expect(result.reason).toMatch(reason);
    expect(result.counterexample).toBeDefined();
  });
});
