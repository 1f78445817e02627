// One provider request built from the manager's view, retried once on a smaller view when the provider says it is too long.
import { canRecoverOverflow, type ContextManager, type RequestOptions } from "../protocol.js";
import type { Message } from "../messages/message.js";
import { ContextOverflowError } from "./context-overflow-error.js";

export interface SendWithRecoveryOptions<T> {
  manager: ContextManager;
  /** The options of every view of this request: its tools, budget, signal. */
  request: RequestOptions;
  /** Names the API in a `ContextOverflowError`, e.g. `Anthropic Messages`. */
  provider: string;
  /** Sends one view to the provider. */
  send(view: Message[]): Promise<T>;
  /** Whether an error is the provider's rejection of a prompt longer than its window. */
  isOverflow(error: unknown): boolean;
  /** `false` surfaces the first rejection as a `ContextOverflowError`, with no retry. Default: true. */
  recoverOverflow?: boolean;
}

/**
 * Sends the manager's view. When the provider rejects it as too long, asks the manager for a smaller one
 * (`recoverOverflow`) and sends that once; a second rejection, or a manager with no recovery, surfaces as
 * a `ContextOverflowError` whose `cause` is the provider's error. Other errors pass through as they are.
 */
export async function sendWithRecovery<T>(options: SendWithRecoveryOptions<T>): Promise<T> {
  const { manager, request, provider } = options;
  const view = await manager.getMessagesForRequest(request);
  try {
    return await options.send(view);
  } catch (error) {
    if (!options.isOverflow(error)) throw error;
    if (options.recoverOverflow === false || !canRecoverOverflow(manager)) throw new ContextOverflowError(provider, false, error);
    const smaller = await manager.recoverOverflow(error, request);
    try {
      return await options.send(smaller);
    } catch (second) {
      if (options.isOverflow(second)) throw new ContextOverflowError(provider, true, second);
      throw second;
    }
  }
}
