import { describe, expect, it } from "vitest";
import { findNonJson } from "./find-non-json.js";

describe("findNonJson", () => {
  it("should accept plain data that round-trips through JSON", () => {
    expect(findNonJson({ role: "user", content: [{ type: "text", text: "hi" }], metadata: { n: 1.5, ok: true, none: null } })).toBeUndefined();
  });

  it("should accept a key whose value is undefined, since JSON leaves it out and an absent key reads the same", () => {
    expect(findNonJson({ role: "user", name: undefined })).toBeUndefined();
  });

  it("should name the path of a value JSON would change", () => {
    expect(findNonJson({ metadata: { when: new Date(0) } })).toEqual({ path: "metadata.when", problem: expect.stringContaining("Date") });
    expect(findNonJson({ metadata: { scores: [1, Number.NaN] } })).toEqual({ path: "metadata.scores.1", problem: expect.stringContaining("NaN") });
    expect(findNonJson({ list: [undefined] })?.path).toBe("list.0");
    expect(findNonJson({ big: 1n })?.problem).toContain("bigint");
    expect(findNonJson({ seen: new Map() })?.problem).toContain("Map");
    expect(findNonJson(Number.POSITIVE_INFINITY)).toEqual({ path: "", problem: expect.stringContaining("Infinity") });
  });

  it("should accept objects without a prototype", () => {
    expect(findNonJson(Object.assign(Object.create(null), { key: "value" }))).toBeUndefined();
  });
});
