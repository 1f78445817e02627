// The history kept in step with the store: the session's messages in memory, in store order, and their token counts.
import { ContextValidationError } from "../errors.js";
import { deepFreeze } from "../messages/deep-freeze.js";
import type { Message } from "../messages/message.js";
import { countMessageTokens } from "../tokens/count-message-tokens.js";
import type { TokenCounter } from "../tokens/token-counter.js";

/**
 * What the manager holds of the session. Synchronous: the engine's facade changes it only after the store
 * took the write (or, for a shared store, as `sync` hands the writes back), so it mirrors the store.
 */
export class SessionHistory {
  /**
   * The messages in order. `reset` swaps the array rather than emptying it, so the array a strategy was
   * handed stays the history it was given.
   */
  messages: Message[] = [];
  /** Token count of each message, filled the first time a view needs it. */
  private tokenCounts: number[] = [];

  constructor(private readonly counter: TokenCounter) {}

  get length(): number {
    return this.messages.length;
  }

  /** One message this manager wrote (already validated and frozen). */
  append(message: Message): void {
    this.messages.push(message);
  }

  /** Messages a store handed back: frozen here too, for a store that did not. */
  appendStored(messages: readonly Message[]): void {
    for (const message of messages) this.messages.push(deepFreeze(message));
  }

  /** Takes a whole new history (`setMessages`, `clear`, a store's content at open or after another writer replaced it). */
  reset(messages: Message[]): void {
    this.messages = messages;
    this.tokenCounts = [];
  }

  tokensOf(index: number): number {
    let tokens = this.tokenCounts[index];
    if (tokens === undefined) {
      tokens = countMessageTokens(this.messages[index]!, this.counter);
      this.tokenCounts[index] = tokens;
    }
    return tokens;
  }

  /** The history index `index` names (negative counts from the end), or a `ContextValidationError` naming the range. */
  resolveIndex(index: number): number {
    const resolved = Number.isInteger(index) && index < 0 ? this.messages.length + index : index;
    if (!Number.isInteger(index) || resolved < 0 || resolved >= this.messages.length) {
      const range = this.messages.length === 0 ? "the history is empty" : `0 to ${this.messages.length - 1}, or -1 for the latest`;
      throw new ContextValidationError([
        { path: "index", message: `must be the index of a message in the history (${range}); received ${String(index)}` },
      ]);
    }
    return resolved;
  }
}
