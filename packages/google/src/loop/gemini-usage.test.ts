import { describe, expect, it } from "vitest";
import { parseGeminiUsage } from "./gemini-usage.js";

describe("parseGeminiUsage", () => {
  it("should take promptTokenCount as the whole prompt, its cached part already inside it", () => {
    expect(
      parseGeminiUsage({ promptTokenCount: 5_000, cachedContentTokenCount: 4_096, candidatesTokenCount: 12, thoughtsTokenCount: 30 }),
    ).toEqual({ usage: { inputTokens: 5_000, outputTokens: 12 } });
  });

  it("should take an answer with no candidates count (Gemini leaves zeros out) as no output count", () => {
    expect(parseGeminiUsage({ promptTokenCount: 40 })).toEqual({ usage: { inputTokens: 40 } });
  });

  it("should refuse the whole report when any count is no count, naming it", () => {
    expect(parseGeminiUsage({ promptTokenCount: 40, cachedContentTokenCount: -1 }).problems).toEqual([
      expect.objectContaining({ field: "cachedContentTokenCount" }),
    ]);
    expect(parseGeminiUsage({ candidatesTokenCount: 3 }).problems).toEqual([expect.objectContaining({ field: "promptTokenCount" })]);
    expect(parseGeminiUsage({ promptTokenCount: "12" }).problems).toHaveLength(1);
  });

  it("should report nothing when there is no usage", () => {
    expect(parseGeminiUsage(undefined)).toEqual({});
  });
});
