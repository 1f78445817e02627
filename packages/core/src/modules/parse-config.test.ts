import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ContextConfigError } from "../errors.js";
import { parseConfig } from "./parse-config.js";

const schema = z.strictObject({
  maxTokens: z.number().int().positive().optional(),
  compactThreshold: z.number().min(0).max(1).default(0.92),
  nested: z.strictObject({ keep: z.number() }).optional(),
});

function catchConfigError(input: unknown): ContextConfigError {
  try {
    parseConfig("context-test", schema, input);
  } catch (error) {
    if (error instanceof ContextConfigError) return error;
    throw error;
  }
  throw new Error("expected parseConfig to throw");
}

describe("parseConfig success", () => {
  it("should return the parsed config with defaults applied", () => {
    expect(parseConfig("context-test", schema, { maxTokens: 1_000 })).toEqual({ maxTokens: 1_000, compactThreshold: 0.92 });
  });
});

describe("parseConfig failures", () => {
  it("should list every unknown key and every bad value in one error", () => {
    const error = catchConfigError({
      maxTokens: "lots",
      compactThreshold: 3,
      maxToken: 5,
      verbose: true,
      nested: { keep: "x", extra: 1 },
    });
    expect(error.module).toBe("context-test");
    expect(error.code).toBe("CONTEXT_CONFIG");
    expect(error.issues).toHaveLength(6);
    expect(error.issues).toEqual(
      expect.arrayContaining([
        { path: "maxTokens", message: expect.stringContaining("expected number") },
        { path: "compactThreshold", message: expect.stringContaining("<=1") },
        { path: "maxToken", message: 'unknown key (did you mean "maxTokens"?)' },
        { path: "verbose", message: "unknown key" },
        { path: "nested.keep", message: expect.stringContaining("expected number") },
        { path: "nested.extra", message: "unknown key" },
      ]),
    );
  });

  it("should name the module and each path in the message", () => {
    const error = catchConfigError({ maxToken: 5, maxTokens: -1 });
    expect(error.message).toMatch(/^Invalid config for context-test: /);
    expect(error.message).toContain('maxToken: unknown key (did you mean "maxTokens"?)');
    expect(error.message).toContain("maxTokens: Too small");
  });

  it("should report a config that is not an object at the root", () => {
    const error = catchConfigError("fast");
    expect(error.issues).toEqual([{ path: "", message: expect.stringContaining("expected object") }]);
  });
});

describe("parseConfig unions", () => {
  const entries = z.strictObject({
    strategies: z.array(z.union([z.string(), z.strictObject({ module: z.string() })])),
  });

  it("should report the issues of the branch that matches the value's type", () => {
    let caught: unknown;
    try {
      parseConfig("unions", entries, { strategies: [{ module: 3 }] });
    } catch (error) {
      caught = error;
    }
    expect((caught as ContextConfigError).issues).toEqual([
      { path: "strategies.0.module", message: expect.stringContaining("expected string") },
    ]);
  });

  it("should list the accepted types when no branch matches", () => {
    expect(() => parseConfig("unions", entries, { strategies: [7] })).toThrow("strategies.0: Invalid input: expected string or object");
  });
});
