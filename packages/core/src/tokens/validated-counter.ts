// Wraps a counter that ctxkit did not write, so a NaN or negative count can never size a view.
import { ContextCounterError } from "../errors.js";
import type { TokenCounter } from "./token-counter.js";

/**
 * `counter`, with every result checked: a count must be a whole number ≥ 0 (a fraction is rounded up,
 * as a partial token still costs one). Anything else throws `ContextCounterError` naming the counter.
 */
export function validatedCounter(counter: TokenCounter): TokenCounter {
  const name = String(counter.name);
  return {
    name,
    count(text: string): number {
      const result: unknown = counter.count(text);
      if (typeof result !== "number" || !Number.isFinite(result) || result < 0) throw new ContextCounterError(name, result);
      return Math.ceil(result);
    },
  };
}
