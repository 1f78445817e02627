// A provider's stream that ended without its final event, or said it failed midway: a failed call, nothing stored.
import { ContextError } from "../errors.js";

/**
 * The stream a loop driver read ended before the provider's last event (`[DONE]`, `message_stop`,
 * `response.completed`), or carried the provider's error event. The turn was taken back out of the manager,
 * as for any failed call: send the same messages again.
 */
export class ContextStreamError extends ContextError {
  /** Which API streamed, e.g. `Anthropic Messages`. */
  readonly provider: string;

  constructor(provider: string, reason: string, options?: { cause?: unknown }) {
    super(
      "CONTEXT_STREAM",
      `${provider}'s stream failed: ${reason}. Nothing from this call was stored and the turn's messages were taken back out; send them again.`,
      options,
    );
    this.provider = provider;
  }
}
