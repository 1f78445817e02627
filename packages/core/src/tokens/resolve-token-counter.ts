// Turns a module's `tokenizer` option into a counter: an encoding name, "estimate", or a counter of your own.
import { ContextArgumentError } from "../errors.js";
import { estimateCounter, isEstimateCounter } from "./estimate-counter.js";
import { tiktokenCounter, type TiktokenEncoding } from "./tiktoken-counter.js";
import { tokenBoundOf } from "./token-bound.js";
import type { TokenCounter } from "./token-counter.js";
import { validatedCounter } from "./validated-counter.js";

export type TokenizerOption = TiktokenEncoding | "estimate" | TokenCounter;

export function resolveTokenCounter(option: TokenizerOption = "o200k_base"): TokenCounter {
  // A counter of the caller's own is checked on every count; the built-in ones (the estimate, a tiktoken counter) need not be.
  if (typeof option === "object" && option !== null && typeof option.count === "function")
    return isEstimateCounter(option) || tokenBoundOf(option) !== undefined ? option : validatedCounter(option);
  switch (option) {
    case "o200k_base":
    case "cl100k_base":
      return tiktokenCounter(option);
    case "estimate":
      return estimateCounter();
    default:
      // Reachable from JavaScript or an unchecked config: name what would have worked.
      throw new ContextArgumentError("resolveTokenCounter", [
        {
          path: "tokenizer",
          message: `unknown tokenizer ${JSON.stringify(option)}: use "o200k_base", "cl100k_base", "estimate" or a TokenCounter`,
        },
      ]);
  }
}
