import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { isPromptTooLongError } from "./is-prompt-too-long-error.js";

function apiError(status: number, type: string, message: string) {
  return Anthropic.APIError.generate(status, { type: "error", error: { type, message } }, undefined, new Headers());
}

describe("isPromptTooLongError", () => {
  it("should know the API's 400 for a prompt over the window, in both wordings", () => {
    expect(isPromptTooLongError(apiError(400, "invalid_request_error", "prompt is too long: 9425 tokens > 8192 maximum"))).toBe(true);
    expect(
      isPromptTooLongError(
        apiError(
          400,
          "invalid_request_error",
          "input length and `max_tokens` exceed context limit: 7500 + 1024 > 8192, decrease input length or `max_tokens` and try again",
        ),
      ),
    ).toBe(true);
  });

  it("should know a 413 request_too_large", () => {
    expect(isPromptTooLongError(apiError(413, "request_too_large", "Request exceeds the maximum allowed number of bytes."))).toBe(true);
  });

  it("should not take other rejections for an overflow", () => {
    expect(isPromptTooLongError(apiError(400, "invalid_request_error", "messages.0.content: Field required"))).toBe(false);
    expect(isPromptTooLongError(apiError(429, "rate_limit_error", "prompt is too long"))).toBe(false);
    expect(isPromptTooLongError(new Error("prompt is too long"))).toBe(false);
  });
});
