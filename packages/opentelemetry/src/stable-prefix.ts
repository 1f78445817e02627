// How much of a view a provider's prompt cache can still hit: its leading messages identical to the previous view's.
import { estimateCounter, type Message } from "@ctxkit/core";
import { countMessageTokens } from "@ctxkit/core/kit";

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
  /** A copy of the previous view (the caller owns the array it was handed), and its running token totals. */
  private readonly messages: Message[] = [];
  private readonly runningTokens: number[] = [];
  private hasPrevious = false;
  private readonly counter = estimateCounter();
  private readonly tokens = new WeakMap<Message, number>();
  private readonly serialized = new WeakMap<Message, string>();

  /** The stable prefix of `view`, or `undefined` for the first view or an empty one. */
  next(view: readonly Message[]): StablePrefix | undefined {
    const { messages: previous, runningTokens } = this;
    let stable = 0;
    while (stable < view.length && stable < previous.length && this.isSame(view[stable]!, previous[stable]!)) stable += 1;
    // Only what follows the stable prefix is new: its totals are carried over, so a request costs its new messages.
    const stableTokens = stable === 0 ? 0 : runningTokens[stable - 1]!;
    previous.length = stable;
    runningTokens.length = stable;
    let total = stableTokens;
    for (let index = stable; index < view.length; index += 1) {
      previous.push(view[index]!);
      total += this.tokensOf(view[index]!);
      runningTokens.push(total);
    }
    const hadPrevious = this.hasPrevious;
    this.hasPrevious = true;
    if (!hadPrevious || view.length === 0) return undefined;
    return { messages: stable, share: total === 0 ? 0 : stableTokens / total };
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
