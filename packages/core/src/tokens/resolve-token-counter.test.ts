import { ContextArgumentError } from "../errors.js";
import { describe, expect, it } from "vitest";
import { type TokenizerOption, resolveTokenCounter } from "./resolve-token-counter.js";
import { estimateCounter } from "./estimate-counter.js";
import type { TokenCounter } from "./token-counter.js";

describe("resolveTokenCounter", () => {
  describe("default", () => {
    it("should be tiktoken's o200k_base", () => {
      expect(resolveTokenCounter().name).toBe("tiktoken:o200k_base");
    });
  });

  describe("encoding names", () => {
    it.each(["o200k_base", "cl100k_base"] as const)("should resolve %s to an exact counter", (encoding) => {
      const counter = resolveTokenCounter(encoding);
      expect(counter.name).toBe(`tiktoken:${encoding}`);
      expect(counter.count("Hello, world!")).toBe(4);
    });
  });

  describe("estimate", () => {
    it("should resolve to the estimate counter", () => {
      const counter = resolveTokenCounter("estimate");
      expect(counter.name).toBe("estimate");
      expect(counter.count("你好世界")).toBe(4);
    });

    it("should take an estimateCounter() as it is, its figures needing no check (and its countJoined kept)", () => {
      const estimate = estimateCounter();
      expect(resolveTokenCounter(estimate)).toBe(estimate);
      expect(resolveTokenCounter(estimate).countJoined).toBeTypeOf("function");
      // A look-alike of one's own is still checked.
      const lookAlike: TokenCounter = { name: "estimate", count: () => Number.NaN };
      expect(() => resolveTokenCounter(lookAlike).count("x")).toThrow();
    });
  });

  describe("a counter of your own", () => {
    it("should count with that counter, under its name, each result checked", () => {
      const own: TokenCounter = { name: "words", count: (text) => text.split(/\s+/).filter(Boolean).length };
      const resolved = resolveTokenCounter(own);
      expect(resolved.name).toBe("words");
      expect(resolved.count("three small words")).toBe(3);
    });
  });

  describe("an unknown option", () => {
    it("should throw an error that lists what is accepted", () => {
      expect(() => resolveTokenCounter("gpt2" as TokenizerOption)).toThrow(/"gpt2".*o200k_base.*cl100k_base.*estimate/);
    });

    it("should reject an object that is not a counter", () => {
      expect(() => resolveTokenCounter({ name: "broken" } as unknown as TokenizerOption)).toThrow(ContextArgumentError);
    });
  });
});
