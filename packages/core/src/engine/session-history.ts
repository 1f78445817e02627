// The history kept in step with the store: the session's messages in memory, in store order, and their token counts.
import { ContextValidationError } from "../errors.js";
import { deepFreeze } from "../messages/deep-freeze.js";
import type { Message } from "../messages/message.js";
import type { ViewEntry } from "../pipeline/strategy.js";
import { countMessageTokens, messageTokenBound } from "../tokens/count-message-tokens.js";
import { type TokenBound, tokenBoundOf } from "../tokens/token-bound.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { EventSink } from "./event-sink.js";

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
  /** At least each message's count, where the counter has such a bound and the message was not counted yet. */
  private tokenBounds: number[] = [];
  private readonly bound: TokenBound | undefined;

  constructor(private readonly counter: TokenCounter) {
    this.bound = tokenBoundOf(counter);
  }

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
    // Sized once: a long history's first view counts every message.
    this.tokenCounts = new Array<number>(messages.length);
    this.tokenBounds = [];
  }

  tokensOf(index: number): number {
    let tokens = this.tokenCounts[index];
    if (tokens === undefined) {
      tokens = countMessageTokens(this.messages[index]!, this.counter);
      this.tokenCounts[index] = tokens;
    }
    return tokens;
  }

  /** Whether the counter has a bound, so an entry may leave its count for later. */
  get hasBound(): boolean {
    return this.bound !== undefined;
  }

  /** Never below `tokensOf(index)`, and counts nothing when the counter has a bound: its count once known, else the bound. */
  boundOf(index: number): number {
    const tokens = this.tokenCounts[index];
    if (tokens !== undefined || this.bound === undefined) return tokens ?? this.tokensOf(index);
    let bound = this.tokenBounds[index];
    if (bound === undefined) {
      bound = messageTokenBound(this.messages[index]!, this.bound);
      this.tokenBounds[index] = bound;
    }
    return bound;
  }

  /**
   * The view entry of message `index` as the history holds it. When `deferred` (a counter with a bound), its `tokens`
   * are counted when first read, so a view far under its budget is served without counting; read again, the same figure.
   */
  entryAt(index: number, deferred: boolean): ViewEntry {
    const message = this.messages[index]!;
    if (!deferred || this.bound === undefined || this.tokenCounts[index] !== undefined)
      return Object.freeze<ViewEntry>({ message, tokens: this.tokensOf(index), source: { kind: "history", index } });
    return deferredEntry(this, index, message, this.counter);
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

/** An entry whose `tokens` are the history's count of `message`, counted on the first read (the message's own count after a reset). */
function deferredEntry(history: SessionHistory, index: number, message: Message, counter: TokenCounter): ViewEntry {
  let tokens: number | undefined;
  return Object.freeze<ViewEntry>({
    message,
    get tokens(): number {
      tokens ??= history.messages[index] === message ? history.tokensOf(index) : countMessageTokens(message, counter);
      return tokens;
    },
    source: { kind: "history", index },
  });
}

/** `setMessages` on a resumed session changes nothing: said on the console and as `context:set_messages_ignored`. */
export async function reportIgnoredSet(
  events: EventSink,
  payload: { file: string; storedCount: number; givenCount: number },
): Promise<void> {
  console.info(
    `ctxkit: setMessages(${payload.givenCount} messages) ignored: the session ${payload.file} was resumed with ${payload.storedCount} messages, its complete history.`,
  );
  await events.emit("context:set_messages_ignored", payload);
}
