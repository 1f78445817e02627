import { ApiError } from "@google/genai";
import { describe, expect, it } from "vitest";
import { isContextLengthError } from "./is-context-length-error.js";

/** The SDK's error for a non-2xx answer: the status, and the error body as its message. */
const apiError = (status: number, error: Record<string, unknown>) => new ApiError({ status, message: JSON.stringify({ error }) });

describe("isContextLengthError", () => {
  it("should know the Gemini API's 400 for an input over the model's limit, and Vertex AI's wording", () => {
    const gemini = apiError(400, {
      code: 400,
      message: "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).",
      status: "INVALID_ARGUMENT",
    });
    const vertex = apiError(400, {
      code: 400,
      message:
        "Unable to submit request because the input token count is 1200293 but model only supports up to 1048576. Reduce the input token count and try again.",
      status: "INVALID_ARGUMENT",
    });
    expect(isContextLengthError(gemini)).toBe(true);
    expect(isContextLengthError(vertex)).toBe(true);
  });

  it("should not take other rejections for an overflow", () => {
    const invalid = apiError(400, {
      code: 400,
      message: "Please ensure that function response turn comes immediately after a function call turn.",
      status: "INVALID_ARGUMENT",
    });
    const quota = apiError(429, {
      code: 429,
      message: "The input token count (5) exceeds the maximum number of tokens allowed (1).",
      status: "RESOURCE_EXHAUSTED",
    });
    expect(isContextLengthError(invalid)).toBe(false);
    expect(isContextLengthError(quota)).toBe(false);
    expect(isContextLengthError(new Error("The input token count (5) exceeds the maximum number of tokens allowed (1)."))).toBe(false);
    expect(isContextLengthError(undefined)).toBe(false);
  });
});
