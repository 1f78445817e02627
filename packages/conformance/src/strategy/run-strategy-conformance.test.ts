import { clearToolResults, trimLongText, truncate } from "@ctxkit/core";
import { createBuiltInStrategy } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import * as broken from "../../test/__fixtures__/broken-strategies.js";
import { runStrategyConformance } from "./run-strategy-conformance.js";

describe("runStrategyConformance", () => {
  it.each([
    ["clear-tool-results", () => clearToolResults()],
    ["trim-long-text", () => trimLongText()],
    ["truncate", () => truncate()],
    ["truncate by name", () => createBuiltInStrategy("truncate")],
  ])("should pass core's %s", async (_name, create) => {
    const result = await runStrategyConformance(create, { runs: 100, seed: 1 });
    expect(result.reason).toBeUndefined();
    expect(result.status).toBe("pass");
  });

  it.each([
    ["drops instructions", broken.dropsInstructions, /protected history message/],
    ["splits units", broken.splitsUnits, /breaks tool units/],
    ["drops a different unit on each call", broken.dropsDifferentUnits, /two different results/],
    ["rewrites without a recorded edit", broken.rewritesSilently, /beyond a recorded shortening/],
    ["rewrites one state key that two workers share", broken.rewritesOneSharedKey, /ContextStateConflictError/],
  ])("should fail a strategy that %s, with a counterexample", async (_flaw, strategy, reason) => {
    const result = await runStrategyConformance(strategy, { runs: 100, seed: 1 });
    expect(result.status).toBe("fail");
    expect(result.reason).toMatch(reason);
    expect(result.counterexample).toMatchObject({ property: "strategy", seed: 1 });
  });
});
