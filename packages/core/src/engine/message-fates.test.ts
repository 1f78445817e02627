import { describe, expect, it } from "vitest";
import type { Message } from "../messages/message.js";
import type { ViewEntry } from "../pipeline/strategy.js";
import { userMessage } from "../testing/index.js";
import { countFates, deriveMessageFates, fateOfEdit, REPAIR_STRATEGY } from "./message-fates.js";

const fromHistory = (index: number, edit?: string): ViewEntry => ({
  message: userMessage(`m${index}`),
  tokens: 5,
  source: { kind: "history", index },
  ...(edit === undefined ? {} : { edit: { strategy: edit, originalTokens: 50 } }),
});

const summaryCovering = (coveredThrough: number): ViewEntry => {
  const message: Message = {
    ...userMessage("<summary>…</summary>"),
    metadata: { ctxkit: { source: "summary", summary: { coveredThrough } } },
  };
  return { message, tokens: 9, source: { kind: "synthetic", origin: "summary" } };
};

describe("deriveMessageFates", () => {
  it("should give every history index one fate, merged into runs by fate and strategy", () => {
    const summary = summaryCovering(3);
    const entries = [
      fromHistory(0),
      summary,
      fromHistory(2),
      fromHistory(5, "clear-tool-results"),
      fromHistory(6, "trim-long-text"),
      fromHistory(7),
    ];
    const runs = deriveMessageFates(9, entries, {
      removed: [
        { from: 1, to: 1, strategy: "summary" },
        { from: 3, to: 4, strategy: "truncate" },
      ],
      addedBy: new Map([[summary.message, "summary"]]),
    });
    expect(runs).toEqual([
      { from: 0, to: 0, fate: "kept" },
      { from: 1, to: 1, fate: "summarized", strategy: "summary", summary: { viewIndex: 1, coveredThrough: 3 } },
      // A message inside the summary's range that stayed verbatim (a pin, say) is kept.
      { from: 2, to: 2, fate: "kept" },
      { from: 3, to: 3, fate: "summarized", strategy: "summary", summary: { viewIndex: 1, coveredThrough: 3 } },
      { from: 4, to: 4, fate: "dropped", strategy: "truncate" },
      { from: 5, to: 5, fate: "cleared", strategy: "clear-tool-results" },
      { from: 6, to: 6, fate: "trimmed", strategy: "trim-long-text" },
      { from: 7, to: 7, fate: "kept" },
      // Absent with no strategy to name: an orphan result the view's repair leaves out.
      { from: 8, to: 8, fate: "dropped", strategy: REPAIR_STRATEGY },
    ]);
    expect(countFates(runs)).toEqual({ kept: 3, cleared: 1, trimmed: 1, summarized: 2, dropped: 2 });
  });

  it("should keep a long session's fates as a few runs", () => {
    const entries = Array.from({ length: 5_000 }, (_, offset) => fromHistory(5_000 + offset));
    const runs = deriveMessageFates(10_000, entries, { removed: [{ from: 0, to: 4_999, strategy: "truncate" }], addedBy: new Map() });
    expect(runs).toEqual([
      { from: 0, to: 4_999, fate: "dropped", strategy: "truncate" },
      { from: 5_000, to: 9_999, fate: "kept" },
    ]);
  });

  it("should tell a cleared result from a trimmed text by the strategy that edited it", () => {
    expect(fateOfEdit({ strategy: "clear-tool-results", originalTokens: 1 })).toBe("cleared");
    expect(fateOfEdit({ strategy: "offload-tool-results", originalTokens: 1 })).toBe("cleared");
    expect(fateOfEdit({ strategy: "microcompact", originalTokens: 1 })).toBe("cleared");
    expect(fateOfEdit({ strategy: "shorten-to-fit", originalTokens: 1 })).toBe("trimmed");
  });
});
