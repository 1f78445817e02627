// An upper bound on a built-in counter's count, cheap to compute: what lets a view far under its budget be served
// before any text is tokenized.
import type { TokenCounter } from "./token-counter.js";

/** A function that is never below `counter.count(text)` for any text. */
export type TokenBound = (text: string) => number;

// Kept beside the counter, not on it: the counter's public shape stays what it was.
const bounds = new WeakMap<TokenCounter, TokenBound>();

/** `counter`, known from now on to never count more than `bound` says. Only for counters whose count is proven to stay under it. */
export function withTokenBound<Counter extends TokenCounter>(counter: Counter, bound: TokenBound): Counter {
  bounds.set(counter, bound);
  return counter;
}

/** The bound registered for `counter`, or undefined (a counter of the caller's own, the estimate): then every count is exact. */
export function tokenBoundOf(counter: TokenCounter): TokenBound | undefined {
  return bounds.get(counter);
}

/**
 * The length of `text` in UTF-8, a lone surrogate taken as U+FFFD (3 bytes), as the tokenizer encodes it. Every BPE
 * token covers at least one byte, so no tiktoken count of a text passes it.
 */
export function utf8ByteLength(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two UTF-16 units, four bytes.
      bytes += 2;
      index += 1;
    } else bytes += 2;
  }
  return bytes;
}
