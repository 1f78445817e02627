import { estimateCounter } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { fitText } from "./fit-text.js";

const counter = estimateCounter();

describe("fitText", () => {
  it("should return a text that fits unchanged", () => {
    expect(fitText("a short summary", 100, counter)).toBe("a short summary");
  });

  it("should cut a long text to at most maxTokens, keeping its beginning and its end", () => {
    const text = `BEGIN ${"lorem ipsum dolor ".repeat(400)} END`;
    const fitted = fitText(text, 120, counter);
    expect(counter.count(fitted)).toBeLessThanOrEqual(120);
    expect(counter.count(fitted)).toBeGreaterThan(100);
    expect(fitted.startsWith("BEGIN")).toBe(true);
    expect(fitted.endsWith("END")).toBe(true);
  });
});
