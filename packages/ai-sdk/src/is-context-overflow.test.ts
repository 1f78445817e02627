import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { isContextOverflow } from "./is-context-overflow.js";

function apiError(message: string, statusCode = 400, responseBody?: string): APICallError {
  return new APICallError({
    message,
    url: "https://api.test/v1",
    requestBodyValues: {},
    statusCode,
    ...(responseBody === undefined ? {} : { responseBody }),
  });
}

describe("isContextOverflow", () => {
  it.each([
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
    "prompt is too long: 210000 tokens > 200000 maximum",
    "The input token count (1100000) exceeds the maximum number of tokens allowed (1048576).",
  ])("should recognise a provider's overflow error: %s", (message) => {
    expect(isContextOverflow(apiError(message))).toBe(true);
  });

  it("should recognise an overflow told in the response body, or a 413", () => {
    expect(isContextOverflow(apiError("Bad Request", 400, '{"error":{"code":"context_length_exceeded"}}'))).toBe(true);
    expect(isContextOverflow(apiError("Payload Too Large", 413))).toBe(true);
  });

  it("should not take other errors for an overflow", () => {
    expect(isContextOverflow(apiError("Invalid API key", 401))).toBe(false);
    expect(isContextOverflow(new Error("maximum context length"))).toBe(false);
  });
});
