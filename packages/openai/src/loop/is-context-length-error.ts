// Whether the OpenAI SDK's error is the API's rejection of a prompt longer than the model's window.

const TOO_LONG = /maximum context length|exceeds the context window|context_length_exceeded/i;

/**
 * The API answers 400 with `code: "context_length_exceeded"` (Chat Completions: "This model's maximum
 * context length is … tokens"; Responses: "Your input exceeds the context window of this model"). Read
 * structurally from the SDK's `APIError` (`status`, `code`, `message`), so no SDK version is assumed.
 */
export function isContextLengthError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { status, code, message } = error as { status?: unknown; code?: unknown; message?: unknown };
  if (status !== 400) return false;
  return code === "context_length_exceeded" || (typeof message === "string" && TOO_LONG.test(message));
}
