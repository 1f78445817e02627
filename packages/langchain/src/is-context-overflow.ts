// Whether a chat model's error is the provider's rejection of a prompt longer than the model's window.
import { ContextOverflowError as LangchainContextOverflowError } from "@langchain/core/errors";

// What the providers say when an integration passes their error on unwrapped (OpenAI, Anthropic, Google).
const TOO_LONG =
  /context_length_exceeded|maximum context length|exceeds the context window|prompt is too long|input token count .* exceeds/i;

/**
 * LangChain's integrations throw `ContextOverflowError` from `@langchain/core/errors` for it (`ChatOpenAI` does);
 * one that does not is recognised by the provider's own wording. A middleware between this one and the model
 * passes the error on wrapped (LangChain's `MiddlewareError`), so its `cause`s are read too.
 */
export function isContextOverflow(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth += 1) {
    if (LangchainContextOverflowError.isInstance(current)) return true;
    const { message, cause } = current as { message?: unknown; cause?: unknown };
    if (typeof message === "string" && TOO_LONG.test(message)) return true;
    current = cause;
  }
  return false;
}
