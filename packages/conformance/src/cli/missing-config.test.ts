import { describe, expect, it } from "vitest";
import { z } from "zod";
import { findMissingConfig, formatMissingConfig, shellQuote } from "./missing-config.js";

const schema = z.strictObject({
  storagePath: z.string({ error: (issue) => (issue.input === undefined ? "required: the folder for the journals" : "must be a string") }),
  retries: z.number(),
  maxTokens: z.number().optional(),
});

describe("findMissingConfig", () => {
  it("should name each required key the config lacks, with the schema's words and an example", () => {
    const missing = findMissingConfig(schema, { maxTokens: 5 });
    expect(missing?.keys).toEqual([
      { name: "storagePath", message: "required: the folder for the journals" },
      { name: "retries", message: expect.stringContaining("expected number") },
    ]);
    expect(JSON.parse(missing!.example)).toEqual({ maxTokens: 5, storagePath: "./ctxkit-conformance-data", retries: 1 });
  });

  it("should find nothing when every required key is there, even if a value is bad", () => {
    expect(findMissingConfig(schema, { storagePath: "x", retries: "many" })).toBeUndefined();
  });

  it("should find nothing without a schema", () => {
    expect(findMissingConfig(undefined, {})).toBeUndefined();
  });
});

describe("formatMissingConfig", () => {
  it("should print a command that can be pasted into a shell", () => {
    const text = formatMissingConfig("context-x", "packages/context-x", {
      keys: [{ name: "storagePath", message: "required" }],
      example: '{"storagePath":"it\'s"}',
    });
    expect(text).toContain("context-x cannot mount without config: storagePath (required).");
    expect(text).toContain(`ctxkit-conformance packages/context-x --config '{"storagePath":"it'\\''s"}'`);
    expect(shellQuote("plain/path.mjs")).toBe("plain/path.mjs");
  });
});
