import { describe, expect, it } from "vitest";
import { CONFORMANCE_PROPERTIES, VIEW_PROPERTIES } from "../properties/all-properties.js";
import { propertyRuns } from "./property-runs.js";

describe("propertyRuns", () => {
  it("should give the view properties their own runs and every other property the suite's", () => {
    expect(propertyRuns("pairing", { runs: 100, viewPropertyRuns: 25 })).toBe(25);
    expect(propertyRuns("restart", { runs: 100, viewPropertyRuns: 25 })).toBe(100);
    expect(propertyRuns("concurrency", { runs: 100, viewPropertyRuns: 25 })).toBe(100);
    expect(propertyRuns("pairing", { runs: 100 })).toBe(100);
  });

  it("should let CTXKIT_CONFORMANCE_RUNS set every property's runs", () => {
    expect(propertyRuns("pairing", { runs: 100, viewPropertyRuns: 25, environmentRuns: 7 })).toBe(7);
    expect(propertyRuns("restart", { runs: 100, viewPropertyRuns: 25, environmentRuns: 7 })).toBe(7);
  });

  it("should name only properties the kit has, and leave the store's own (restart, resume, clear, concurrency) out", () => {
    const names = CONFORMANCE_PROPERTIES.map((property) => property.name);
    for (const name of VIEW_PROPERTIES) expect(names).toContain(name);
    for (const name of ["restart", "resume", "clear", "concurrency", "undo-compaction", "partial-compaction", "shared-state"])
      if (names.includes(name)) expect(VIEW_PROPERTIES).not.toContain(name);
  });
});
