// Test-only: views like the ones a manager hands its strategies, from pieces that exercise what a truncation drops
// and what the steps before it leave (long outputs, broken pairs, pins, summaries, many short exchanges).
import fc from "fast-check";
import type { Message } from "../src/messages/message.js";
import { SUMMARY_SOURCE } from "../src/messages/summary-coverage.js";
import type { EntrySource, ViewDraft } from "../src/pipeline/strategy.js";
import { repairToolPairs } from "../src/units/repair-tool-pairs.js";
import { historyArbitrary } from "./arbitraries.js";
import { createTestView } from "./strategy-context.js";

/** A summary a summarizer left in the view, long enough to be trimmed, covering history up to `coveredThrough`. */
export function summaryMessage(coveredThrough: number): Message {
  return {
    role: "user",
    content: `Summary of the work so far: ${"src/summary/notes.ts and the parser ".repeat(12)}`,
    metadata: { ctxkit: { source: SUMMARY_SOURCE, summary: { coveredThrough } } },
  };
}

/** The history's view with its broken pairs repaired, a summary message as the synthetic entry a summarizer leaves. */
export function viewOf(history: readonly Message[]): ViewDraft {
  const repaired = repairToolPairs(history);
  const sources = repaired.sources.map((index, position): EntrySource => {
    if (repaired.messages[position]!.metadata?.ctxkit !== undefined) return { kind: "synthetic", origin: SUMMARY_SOURCE };
    return index === null ? { kind: "synthetic", origin: "repair" } : { kind: "history", index };
  });
  return createTestView(repaired.messages, sources);
}

/** Pieces of a history: a case's history is a few of them in a row. */
export const historyPieces = fc.oneof(
  { arbitrary: historyArbitrary({ hugeOutputs: true, maxUnits: 4 }), weight: 3 },
  { arbitrary: historyArbitrary({ maxUnits: 4 }), weight: 3 },
  { arbitrary: historyArbitrary({ broken: true, maxUnits: 3 }), weight: 2 },
  { arbitrary: fc.constant<Message[]>([{ role: "user", content: `pinned ${"x".repeat(300)}`, metadata: { pinned: true } }]), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 40 }).map((coveredThrough) => [summaryMessage(coveredThrough)]), weight: 2 },
  // A short exchange, never trimmed at most limits: many of them pass the target with a current turn small enough
  // to leave room for a summary a truncation keeps.
  {
    arbitrary: fc.integer({ min: 1, max: 8 }).map((turns) =>
      Array.from({ length: turns }, (_, turn): Message[] => [
        { role: "user", content: `next step ${turn}: look at src/app/module-${turn}.ts` },
        { role: "assistant", content: `done with src/app/module-${turn}.ts` },
      ]).flat(),
    ),
    weight: 3,
  },
);
