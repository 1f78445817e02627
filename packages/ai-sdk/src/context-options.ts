// Options both integrations share, and the one place they ask the manager for a view.
import {
  estimateCounter,
  type ContextManager,
  type EventHandler,
  type Message,
  type Provider,
  type RequestOptions,
  type TokenCounter,
} from "@ctxkit/core";
import { countMessageTokens } from "@ctxkit/core/kit";

export interface ContextOptions {
  /** The model's window (`contextWindow`, `maxOutputTokens`), which sets the budget of every view. */
  provider?: Provider;
  /** A fixed budget instead; the manager's `maxTokens` applies when neither is given. */
  tokenBudget?: number;
  /**
   * Counts the system prompt, which is sent beside the view and not stored, so its tokens are kept free.
   * Default: core's `estimateCounter()`, which needs no load time; the provider's reported usage corrects
   * the gap over the next calls.
   */
  systemCounter?: TokenCounter;
  /** Receives `context:usage_rejected` when the provider reports a usage that is no count (the turn is kept, the usage ignored). */
  onEvent?: EventHandler;
  /**
   * Each stored response records its provider and model (`metadata.provenance`), and each prompt leaves out the
   * reasoning another provider or model produced, so switching models mid-session is never refused. `false` sends
   * every stored part as it is, whichever model produced it. Default: true.
   */
  checkProvenance?: boolean;
}

export interface ViewRequest {
  /** The system texts sent beside the view. */
  system: readonly string[];
  /** The tool definitions sent beside it. */
  tools: readonly unknown[] | undefined;
  signal: AbortSignal | undefined;
  /** The model's id, so a later summary knows which model's prompt cache holds the view (`RequestOptions.model`). */
  model?: string | undefined;
}

/** The request options for a view sent beside `request`'s system texts and tools. */
export function toRequestOptions(request: ViewRequest, options: ContextOptions): RequestOptions {
  const counter = options.systemCounter ?? estimateCounter();
  const reserveTokens = request.system.reduce((total, content) => total + countMessageTokens({ role: "system", content }, counter), 0);
  return {
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(options.tokenBudget === undefined ? {} : { tokenBudget: options.tokenBudget }),
    ...(request.tools === undefined || request.tools.length === 0 ? {} : { tools: request.tools }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(reserveTokens === 0 ? {} : { reserveTokens }),
    ...(typeof request.model === "string" && request.model !== "" ? { model: request.model } : {}),
  };
}

export function requestView(manager: ContextManager, request: ViewRequest, options: ContextOptions): Promise<Message[]> {
  return manager.getMessagesForRequest(toRequestOptions(request, options));
}
