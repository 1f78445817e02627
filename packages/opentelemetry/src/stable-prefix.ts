// How much of a view a provider's prompt cache can still hit: its leading messages identical to the previous view's.
import { countMessageTokens, estimateCounter, type Message } from "@ctxkit/core";

export interface StablePrefix {
  /** Leading messages identical, byte for byte, to the previous view's. */
  readonly messages: number;
  /** Their share (0 to 1) of the view's tokens, estimated. */
  readonly share: number;
}

/**
 * Compares each view with the one before it. Messages are compared by identity first (the engine hands
 * back the same frozen objects between compactions) and by their JSON otherwise. Tokens are estimated
 * without a tokenizer and cached per message, so a request costs only its new messages; the share is a
 * ratio of two estimates, so the estimate's error mostly cancels.
 */
export class StablePrefixTracker {
  private previous: readonly Message[] | undefined;
  private readonly counter = estimateCounter();
  private readonly tokens = new WeakMap<Message, number>();
  private readonly serialized = new WeakMap<Message, string>();

  /** The stable prefix of `view`, or `undefined` for the first view or an empty one. */
  next(view: readonly Message[]): StablePrefix | undefined {
    const previous = this.previous;
    this.previous = view;
    if (previous === undefined || view.length === 0) return undefined;
    let messages = 0;
    while (messages < view.length && messages < previous.length && this.isSame(view[messages]!, previous[messages]!)) messages += 1;
    let stableTokens = 0;
    let totalTokens = 0;
    for (let index = 0; index < view.length; index += 1) {
      const tokens = this.tokensOf(view[index]!);
      totalTokens += tokens;
      if (index < messages) stableTokens += tokens;
    }
    return { messages, share: totalTokens === 0 ? 0 : stableTokens / totalTokens };
  }

  private isSame(message: Message, previous: Message): boolean {
    return message === previous || this.serialize(message) === this.serialize(previous);
  }

  private serialize(message: Message): string {
    let text = this.serialized.get(message);
    if (text === undefined) {
      text = JSON.stringify(message);
      this.serialized.set(message, text);
    }
    return text;
  }

  private tokensOf(message: Message): number {
    let tokens = this.tokens.get(message);
    if (tokens === undefined) {
      tokens = countMessageTokens(message, this.counter);
      this.tokens.set(message, tokens);
    }
    return tokens;
  }
}
