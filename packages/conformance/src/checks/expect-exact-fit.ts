// Every view fits its budget as core counts it exactly, whatever the module's own figures say.
import type { ContextUsage, Message } from "@ctxkit/core";
import { countViewTokens, DEFAULT_COUNTER_NAME, findCoreCounter } from "./count-view-tokens.js";
import { expectThat } from "./violation.js";

/**
 * The counter a module declares through `usage().counter` when core has it; otherwise (no usage(), or a
 * counter of its own) core's exact o200k_base counter, the default every module starts with.
 */
export function exactCounterFor(usage: ContextUsage | undefined): string {
  return usage !== undefined && findCoreCounter(usage.counter) !== undefined ? usage.counter : DEFAULT_COUNTER_NAME;
}

/** A module that counts with a cheaper counter (and reports that count) is caught here, not trusted. */
export function expectExactFit(
  view: readonly Message[],
  budget: number,
  usage: ContextUsage | undefined,
  where: string,
  declared = usage,
): void {
  const counter = exactCounterFor(declared);
  const tokens = countViewTokens(view, counter);
  expectThat(
    tokens <= budget,
    () =>
      `${where} returned a view of ${tokens} tokens by core's exact ${counter} counter, over the budget ${budget}${usage === undefined ? "" : ` (its usage() reports ${usage.tokens})`}`,
  );
}
