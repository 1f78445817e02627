import { describe, expect, it } from "vitest";
import { ContextCounterError } from "../errors.js";
import { resolveTokenCounter } from "./resolve-token-counter.js";
import { validatedCounter } from "./validated-counter.js";

const returning = (value: unknown) => validatedCounter({ name: "custom", count: () => value as number });

describe("validatedCounter", () => {
  it("should pass whole counts through, and round a fraction up", () => {
    expect(returning(12).count("x")).toBe(12);
    expect(returning(2.2).count("x")).toBe(3);
    expect(returning(0).count("")).toBe(0);
  });

  it("should refuse NaN, a negative count, Infinity or a non-number, naming the counter (regression)", () => {
    for (const value of [Number.NaN, -1, Number.POSITIVE_INFINITY, "7", undefined]) {
      expect(() => returning(value).count("x")).toThrow(ContextCounterError);
    }
    expect(() => returning(Number.NaN).count("x")).toThrow(/"custom" returned NaN/);
  });

  it("should be applied to a counter given as the tokenizer option", () => {
    expect(() => resolveTokenCounter({ name: "broken", count: () => Number.NaN }).count("x")).toThrow(ContextCounterError);
  });
});
