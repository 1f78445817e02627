// Compares a stored history with what was added, and says exactly where and how they differ.
import type { Message } from "@ctxkit/core";
import { firstDifference } from "./deep-equal.js";
import { expectThat, preview } from "./violation.js";

export function describeHistoryDifference(stored: readonly Message[], expected: readonly Message[]): string | undefined {
  const index = firstDifference(stored, expected);
  if (index === -1) return undefined;
  if (index === stored.length)
    return `it holds ${stored.length} message(s) of the ${expected.length} added; message ${index} is missing: ${preview(expected[index])}`;
  if (index === expected.length)
    return `it holds ${stored.length} message(s), ${stored.length - expected.length} more than added, from ${preview(stored[index])}`;
  return `message ${index} is ${preview(stored[index])}, but ${preview(expected[index])} was added`;
}

/** `when` completes "…, getMessages() differs from what was added": e.g. `after clear()`. */
export function expectSameHistory(stored: readonly Message[], expected: readonly Message[], when: string): void {
  const difference = describeHistoryDifference(stored, expected);
  expectThat(difference === undefined, () => `${when}, getMessages() differs from what was added: ${difference}`);
}
