// Holds a summarizer's answer to the length asked: an over-long summary would eat the room it was meant to free.
import type { TokenCounter } from "@ctxkit/core";
import { shortenText } from "./shorten-for-summarizer.js";

/**
 * `text` if it counts at most `maxTokens`; otherwise the longest head-and-tail cut of it that does,
 * found by binary search over its length (a logarithmic number of counts).
 */
export function fitText(text: string, maxTokens: number, counter: TokenCounter): string {
  if (counter.count(text) <= maxTokens) return text;
  let fits = 0;
  let tooLong = Array.from(text).length;
  while (tooLong - fits > 1) {
    const middle = Math.floor((fits + tooLong) / 2);
    if (counter.count(shortenText(text, middle)) <= maxTokens) fits = middle;
    else tooLong = middle;
  }
  return shortenText(text, fits);
}
