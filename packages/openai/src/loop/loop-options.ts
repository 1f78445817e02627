// Options the OpenAI loop drivers share.
import type { EventHandler, Provider } from "@ctxkit/core";

export interface ContextLoopOptions {
  /** The model's window (`contextWindow`, `maxOutputTokens`), which sets the budget of every view. */
  provider?: Provider;
  /** A fixed budget instead; the manager's `maxTokens` applies when neither is given. */
  tokenBudget?: number;
  /**
   * When the API rejects a request as too long, retry it once on the manager's smaller view
   * (`recoverOverflow`); a second rejection throws `ContextOverflowError`. Default: true.
   */
  recoverOverflow?: boolean;
  /** Receives `context:usage_rejected` when the API reports a usage that is no count (the turn is kept, the usage ignored). */
  onEvent?: EventHandler;
}
