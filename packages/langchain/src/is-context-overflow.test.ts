import { ContextOverflowError } from "@langchain/core/errors";
import { MiddlewareError } from "langchain";
import { describe, expect, it } from "vitest";
import { isContextOverflow } from "./is-context-overflow.js";

describe("isContextOverflow", () => {
  it("should recognise LangChain's ContextOverflowError, as ChatOpenAI throws it", () => {
    expect(isContextOverflow(new ContextOverflowError("Input exceeded the model's context window."))).toBe(true);
  });

  it("should recognise it inside the MiddlewareError a middleware between this one and the model wraps it in", () => {
    expect(isContextOverflow(MiddlewareError.wrap(new ContextOverflowError("too long"), "Retry"))).toBe(true);
  });

  it("should recognise a provider's own wording from an integration that does not wrap it", () => {
    expect(isContextOverflow(new Error("400 prompt is too long: 210000 tokens > 200000 maximum"))).toBe(true);
    expect(isContextOverflow(new Error("This model's maximum context length is 128000 tokens."))).toBe(true);
  });

  it("should not take any other error for it", () => {
    expect(isContextOverflow(new Error("429 rate limit exceeded"))).toBe(false);
    expect(isContextOverflow("prompt is too long")).toBe(false);
    expect(isContextOverflow(null)).toBe(false);
  });
});
