// Whether a model call failed because its prompt was too long for the model, as each provider words it.
import { APICallError } from "ai";

const OVERFLOW =
  /context[_ ]length|maximum context|context window|prompt is too long|input is too long|too many (input )?tokens|exceeds the maximum number of tokens|token count .*exceeds/i;

export function isContextOverflow(error: unknown): boolean {
  if (!APICallError.isInstance(error)) return false;
  if (error.statusCode === 413) return true;
  return OVERFLOW.test(error.message) || (error.responseBody !== undefined && OVERFLOW.test(error.responseBody));
}
