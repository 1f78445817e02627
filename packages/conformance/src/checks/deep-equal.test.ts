import { describe, expect, it } from "vitest";
import { firstDifference, isDeepEqual } from "./deep-equal.js";

describe("isDeepEqual", () => {
  it("should compare nested data regardless of key order", () => {
    expect(isDeepEqual({ a: [1, { b: "x" }], c: null }, { c: null, a: [1, { b: "x" }] })).toBe(true);
    expect(isDeepEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
  });

  it("should treat a key holding undefined as absent, as JSON does", () => {
    expect(isDeepEqual({ role: "user", name: undefined }, { role: "user" })).toBe(true);
  });

  it("should tell arrays from objects and null from an object", () => {
    expect(isDeepEqual([], {})).toBe(false);
    expect(isDeepEqual(null, {})).toBe(false);
  });
});

describe("firstDifference", () => {
  it("should give the first differing index, the shorter length, or -1", () => {
    expect(firstDifference([1, 2, 3], [1, 9, 3])).toBe(1);
    expect(firstDifference([1, 2], [1, 2, 3])).toBe(2);
    expect(firstDifference([{ a: 1 }], [{ a: 1 }])).toBe(-1);
  });
});
