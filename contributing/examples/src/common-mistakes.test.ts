// The mistakes the guides warn about, each caught by its suite: proof that the examples' suites can fail.
import { runAdapterConformance, runStrategyConformance } from "@ctxkit/conformance";
import { createViewDraft, type Strategy } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { keepRecent } from "./keep-recent-strategy.js";
import { fromPlainMessages, toPlainMessages } from "./plain-adapter.js";

describe("the suites catch the guides' common mistakes", () => {
  it("should fail a strategy that drops old tool results instead of shortening them", async () => {
    const correct = keepRecent();
    const dropsResults: Strategy = {
      name: "keep-recent",
      async apply(view, context) {
        const { view: shortened } = await correct.apply(view, context);
        const kept = shortened.entries.filter((entry) => entry.edit === undefined);
        return { view: createViewDraft(kept), applied: kept.length !== view.entries.length };
      },
    };
    const result = await runStrategyConformance(dropsResults, { seed: 1 });
    expect(result.status).toBe("fail");
  });

  it("should fail an adapter that loses the images of a message", () => {
    const losesImages = {
      name: "plain",
      toProvider: (messages: Parameters<typeof toPlainMessages>[0]) => toPlainMessages(messages).map(({ images, ...message }) => message),
      fromProvider: fromPlainMessages,
    };
    const roundTrip = runAdapterConformance(losesImages, { seed: 1 }).find((check) => check.name === "round-trip");
    expect(roundTrip?.status).toBe("fail");
    expect(roundTrip?.reason).toContain("the round trip changed the history");
  });
});
