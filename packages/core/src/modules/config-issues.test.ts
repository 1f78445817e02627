import { describe, expect, it } from "vitest";
import { z } from "zod";
import { contextConfigSchema } from "../engine/context-config.js";
import { ContextConfigError } from "../errors.js";
import { closestName } from "./closest-name.js";
import { parseConfig } from "./parse-config.js";

function messageFor(schema: z.core.$ZodType, input: unknown): string {
  try {
    parseConfig("context-test", schema, input);
  } catch (error) {
    if (error instanceof ContextConfigError) return error.message;
    throw error;
  }
  throw new Error("expected parseConfig to throw");
}

describe("config issues (regression: each message says what is allowed)", () => {
  it("should list the allowed shapes of a strategy entry that matches none", () => {
    expect(messageFor(contextConfigSchema, { strategies: [{ nme: "truncate" }] })).toContain(
      "strategies.0: Invalid input: matches none of the allowed shapes: expected a built-in strategy name, { name, options }, or a Strategy object",
    );
  });

  it("should suggest the built-in strategy a mistyped name meant", () => {
    expect(messageFor(contextConfigSchema, { strategies: ["trunc"] })).toContain('(did you mean "truncate"?)');
  });

  it("should list the tokenizers allowed, with a suggestion", () => {
    expect(messageFor(contextConfigSchema, { tokenizer: "o200k" })).toContain(
      'tokenizer: Invalid input: matches none of the allowed shapes: expected "o200k_base", "cl100k_base", "estimate" or a TokenCounter (did you mean "o200k_base"?)',
    );
  });

  it("should suggest the known key an unknown one meant", () => {
    expect(messageFor(contextConfigSchema, { maxToken: 5 })).toContain('maxToken: unknown key (did you mean "maxTokens"?)');
  });

  it("should suggest keys inside nested objects and arrays too", () => {
    const schema = z.strictObject({ items: z.array(z.strictObject({ keepRecent: z.number().optional() })).optional() });
    expect(messageFor(schema, { items: [{ keepRecnt: 1 }] })).toContain('items.0.keepRecnt: unknown key (did you mean "keepRecent"?)');
  });

  it("should say a missing key is required, not that it received undefined", () => {
    const message = messageFor(z.strictObject({ storagePath: z.string() }), {});
    expect(message).toContain("storagePath: required: expected string");
    expect(message).not.toContain("received undefined");
  });

  it("should keep a schema's own message for a missing key", () => {
    const schema = z.strictObject({ storagePath: z.string({ error: "required: the journals' folder" }) });
    expect(messageFor(schema, {})).toContain("storagePath: required: the journals' folder");
  });

  it("should list the values of a union of literals when no branch has a summary", () => {
    const schema = z.strictObject({ mode: z.union([z.literal("always"), z.literal("batch"), z.number()]) });
    expect(messageFor(schema, { mode: "bach" })).toContain(
      'mode: Invalid input: matches none of the allowed shapes: one of "always", "batch"; or a number (did you mean "batch"?)',
    );
  });
});

describe("closestName", () => {
  it("should find a name a few edits away or one the typed name begins", () => {
    expect(closestName("maxToken", ["maxTokens", "safetyMargin"])).toBe("maxTokens");
    expect(closestName("trunc", ["truncate", "trim-long-text"])).toBe("truncate");
    expect(closestName("Verbose", ["maxTokens"])).toBeUndefined();
  });
});
