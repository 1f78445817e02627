import { describe, expect, it } from "vitest";
import { findNonJson, MAX_JSON_DEPTH } from "./find-non-json.js";

describe("findNonJson", () => {
  it("should accept plain data that round-trips through JSON", () => {
    expect(
      findNonJson({ role: "user", content: [{ type: "text", text: "hi" }], metadata: { n: 1.5, ok: true, none: null } }),
    ).toBeUndefined();
  });

  it("should accept a key whose value is undefined, since JSON leaves it out and an absent key reads the same", () => {
    expect(findNonJson({ role: "user", name: undefined })).toBeUndefined();
  });

  it("should name the path of a value JSON would change", () => {
    expect(findNonJson({ metadata: { when: new Date(0) } })).toEqual({ path: "metadata.when", problem: expect.stringContaining("Date") });
    expect(findNonJson({ metadata: { scores: [1, Number.NaN] } })).toEqual({
      path: "metadata.scores.1",
      problem: expect.stringContaining("NaN"),
    });
    expect(findNonJson({ list: [undefined] })?.path).toBe("list.0");
    expect(findNonJson({ big: 1n })?.problem).toContain("bigint");
    expect(findNonJson({ seen: new Map() })?.problem).toContain("Map");
    expect(findNonJson(Number.POSITIVE_INFINITY)).toEqual({ path: "", problem: expect.stringContaining("Infinity") });
  });

  it("should accept objects without a prototype", () => {
    expect(findNonJson(Object.assign(Object.create(null), { key: "value" }))).toBeUndefined();
  });

  it("should name a circular reference instead of overflowing the stack (regression)", () => {
    const metadata: Record<string, unknown> = { name: "loop" };
    metadata["self"] = { back: metadata };
    expect(findNonJson({ metadata })).toEqual({ path: "metadata.self.back", problem: expect.stringContaining("circular") });
  });

  it("should accept the same object twice when it is not its own ancestor", () => {
    const shared = { a: 1 };
    expect(findNonJson({ left: shared, right: [shared, shared] })).toBeUndefined();
  });

  it("should refuse nesting deeper than the limit, and accept it at the limit (regression)", () => {
    const nested = (depth: number): unknown => {
      let value: unknown = "leaf";
      for (let level = 0; level < depth; level += 1) value = [value];
      return value;
    };
    expect(findNonJson(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(findNonJson(nested(MAX_JSON_DEPTH + 1))?.problem).toContain(`deeper than ${MAX_JSON_DEPTH}`);
    expect(findNonJson(nested(100_000))?.problem).toContain("deeper");
  });
});
