/** Counts the tokens of a text. Implementations must be synchronous and pure. */
export interface TokenCounter {
  /** Stable name, e.g. `tiktoken:o200k_base` or `estimate`. */
  readonly name: string;
  count(text: string): number;
  /**
   * Optional: exactly what `count(texts.join("\n"))` gives, without making the joined string (a message's
   * texts are counted as one). Leave it out unless the figures are the same for every input.
   */
  countJoined?(texts: readonly string[]): number;
}
