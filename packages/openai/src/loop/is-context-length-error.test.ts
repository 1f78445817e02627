import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { isContextLengthError } from "./is-context-length-error.js";

function apiError(status: number, error: { message: string; type: string; param: string | null; code: string | null }) {
  return OpenAI.APIError.generate(status, { error }, undefined, new Headers());
}

describe("isContextLengthError", () => {
  it("should know the 400 context_length_exceeded of Chat Completions and of Responses", () => {
    const chat = apiError(400, {
      message:
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9442 tokens. Please reduce the length of the messages.",
      type: "invalid_request_error",
      param: "messages",
      code: "context_length_exceeded",
    });
    const responses = apiError(400, {
      message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
      type: "invalid_request_error",
      param: "input",
      code: "context_length_exceeded",
    });
    expect(isContextLengthError(chat)).toBe(true);
    expect(isContextLengthError(responses)).toBe(true);
  });

  it("should not take other rejections for an overflow", () => {
    expect(
      isContextLengthError(
        apiError(400, { message: "Unrecognized request argument supplied: foo", type: "invalid_request_error", param: null, code: null }),
      ),
    ).toBe(false);
    expect(
      isContextLengthError(apiError(429, { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" })),
    ).toBe(false);
    expect(isContextLengthError(new Error("maximum context length"))).toBe(false);
  });
});
