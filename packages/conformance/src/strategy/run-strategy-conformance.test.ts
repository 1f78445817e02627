import { clearToolResults, importance, microcompact, offloadToolResults, slidingWindow, trimLongText, truncate } from "@ctxkit/core";
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
    ["truncate with its note of dropped identifiers", () => createBuiltInStrategy("truncate", { noteIdentifiers: 20 })],
    ["clear-tool-results skipping shown identifiers", () => createBuiltInStrategy("clear-tool-results", { skipShownIdentifiers: true })],
    ["shorten-to-fit by name", () => createBuiltInStrategy("shorten-to-fit")],
    ["importance", () => importance()],
    ["microcompact", () => microcompact()],
    ["offload-tool-results", () => offloadToolResults()],
    // Its default window (40 messages) is more than the drafts hold: a small one lets it apply.
    ["sliding-window over 6 messages", () => slidingWindow({ windowSize: 6 })],
  ])("should pass core's %s", async (_name, create) => {
    const result = await runStrategyConformance(create, { runs: 100, seed: 1 });
    expect(result.reason).toBeUndefined();
    expect(result.status).toBe("pass");
    expect(result.note).toMatch(/^applied in [1-9]/);
  });

  it("should pass a working drop-images strategy, which applies to some drafts", async () => {
    const result = await runStrategyConformance(broken.dropsImages, { runs: 100, seed: 1 });
    expect(result.reason).toBeUndefined();
    expect(result.status).toBe("pass");
    expect(result.note).toMatch(/^applied in [1-9]\d* of 100 runs/);
  });

  it.each([
    ["drops instructions", broken.dropsInstructions, /protected history message/],
    ["splits units", broken.splitsUnits, /breaks tool units/],
    ["drops a different unit on each call", broken.dropsDifferentUnits, /two different results/],
    ["rewrites without a recorded edit", broken.rewritesSilently, /beyond a recorded shortening/],
    ["rewrites one state key that two workers share", broken.rewritesOneSharedKey, /ContextStateConflictError/],
    [
      "looks for another API's image part type, and so never applies",
      broken.dropsImagesOfAnotherType,
      /never exercised: .* none of 100 runs/,
    ],
    ["takes every content part for text", broken.trimsPartsAsText, /threw TypeError/],
    [
      "shortens by characters while adding tokens",
      broken.shortensByCharacters,
      /beyond a recorded shortening \(it has \d+ tokens, the original \d+/,
    ],
    ["leaves a text part with no text in place of each non-text part", broken.corruptsNonTextParts, /a message no manager would accept/],
  ])("should fail a strategy that %s, with a counterexample", async (_flaw, strategy, reason) => {
    const result = await runStrategyConformance(strategy, { runs: 100, seed: 1 });
    expect(result.status).toBe("fail");
    expect(result.reason).toMatch(reason);
    expect(result.counterexample).toMatchObject({ property: "strategy", seed: 1 });
  });
});
