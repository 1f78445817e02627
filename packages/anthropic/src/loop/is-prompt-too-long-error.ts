// Whether the Anthropic SDK's error is the API's rejection of a prompt longer than the model's window.

const TOO_LONG = /prompt is too long|exceed context limit/i;

/**
 * The API answers 400 `invalid_request_error` with "prompt is too long: N tokens > M maximum" (or, when
 * the input plus `max_tokens` does not fit, "input length and `max_tokens` exceed context limit"), and 413
 * `request_too_large` for a body over its size limit. Read structurally from the SDK's `APIError`.
 */
export function isPromptTooLongError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { status, message } = error as { status?: unknown; message?: unknown };
  if (status === 413) return true;
  return status === 400 && typeof message === "string" && TOO_LONG.test(message);
}
