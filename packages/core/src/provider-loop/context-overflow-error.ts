// The provider rejected a request as too long for its window even after the manager's recovery.
import { ContextError } from "../errors.js";

/**
 * The provider rejected the view as longer than its context window, and again after one recovery
 * (`recoverOverflow`), or the manager has no recovery. The provider's own error is the `cause`.
 */
export class ContextOverflowError extends ContextError {
  /** Which API refused it, e.g. `OpenAI Chat Completions`. */
  readonly provider: string;
  /** Whether a smaller view was tried after the first rejection. */
  readonly recovered: boolean;

  constructor(provider: string, recovered: boolean, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(
      "CONTEXT_OVERFLOW",
      `${provider} rejected the request as too long for the model's context window` +
        `${recovered ? ", again after one recovery" : " and the manager cannot recover from an overflow"} (${detail}). ` +
        `Give the manager a budget below the model's window (maxTokens, or a provider with its contextWindow), ` +
        `or shorten the system prompt, tools or latest turn.`,
      { cause },
    );
    this.provider = provider;
    this.recovered = recovered;
  }
}
