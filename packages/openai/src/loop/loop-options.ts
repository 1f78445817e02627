// Options the OpenAI loop drivers share.
import type { EventHandler, Provider, RequestOptions } from "@ctxkit/core";

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

/**
 * The view's request options: the loop's window or budget, the call's tools (counted) and abort signal, and
 * its model (so a later summary knows which model's prompt cache holds this view; a call with no model names none).
 */
export function viewRequestOptions(
  options: ContextLoopOptions,
  call: { readonly tools?: readonly unknown[] | undefined; readonly model?: unknown },
  signal: AbortSignal | null | undefined,
): RequestOptions {
  const { tools, model } = call;
  return {
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(options.tokenBudget === undefined ? {} : { tokenBudget: options.tokenBudget }),
    ...(tools === undefined ? {} : { tools }),
    ...(signal == null ? {} : { signal }),
    ...(typeof model === "string" && model !== "" ? { model } : {}),
  };
}
