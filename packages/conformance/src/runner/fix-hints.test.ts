import { describe, expect, it } from "vitest";
import { describeFix } from "./fix-hints.js";

describe("describeFix", () => {
  it.each([
    [
      "the request after 1 message(s) with budget 1 returned a view of 4 tokens (counted with core's exact o200k_base counter), over the budget",
      "minimal-view-overflow",
    ],
    ['the request after 6 message(s) with budget 144: the view breaks tool pairs: [{"kind":"orphan_result"}]', "split-tool-unit"],
    ["after clear(), getMessages() still returns 2 message(s): [...]", "history-changed"],
  ])("should tell what kind of failure %j is", (reason, kind) => {
    expect(describeFix(reason).failureKind).toBe(kind);
  });

  it("should not take a view that differs from a fresh instance's given the history for a rewritten history", () => {
    const reason = "after a restart the view for budget 256 is [...]; a fresh instance given the history builds [...]";
    expect(describeFix(reason).failureKind).not.toBe("history-changed");
    expect(describeFix(reason).fix.length).toBeGreaterThan(20);
  });
});
