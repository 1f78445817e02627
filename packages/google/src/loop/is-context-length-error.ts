// Whether the Google Gen AI SDK's error is the API's rejection of a prompt longer than the model's input limit.

// The Gemini API's wording, and Vertex AI's.
const TOO_LONG =
  /input token count \(\d+\) exceeds the maximum number of tokens allowed|input token count is \d+ but (?:the )?model only supports up to/i;

/**
 * The API answers 400 `INVALID_ARGUMENT` with "The input token count (N) exceeds the maximum number of tokens
 * allowed (M)." (Vertex AI: "Unable to submit request because the input token count is N but model only supports
 * up to M."). The SDK's `ApiError` carries the status and the error body as its message; read structurally.
 */
export function isContextLengthError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { status, message } = error as { status?: unknown; message?: unknown };
  return status === 400 && typeof message === "string" && TOO_LONG.test(message);
}
