/** Counts the tokens of a text. Implementations must be synchronous and pure. */
export interface TokenCounter {
  /** Stable name, e.g. `tiktoken:o200k_base` or `estimate`. */
  readonly name: string;
  count(text: string): number;
}
