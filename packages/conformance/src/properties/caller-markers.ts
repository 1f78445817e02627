// ctxkit's own markers in a caller's metadata (`metadata.ctxkit`, `metadata.ctxkitEdit`) change nothing about a view.
import type { Message } from "@ctxkit/core";
import fc from "fast-check";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { historyArbitrary } from "../arbitraries/history-arbitrary.js";
import { expectThat, preview } from "../checks/violation.js";
import { defineProperty, withManager } from "./property.js";

const FORGED = [
  { ctxkitEdit: { strategy: "clear-tool-results", originalTokens: 1 } },
  { ctxkitEdit: { strategy: "trim-long-text", originalTokens: 999_999 } },
  { ctxkit: { source: "import" } },
] as const;

/** The history with forged markers on the messages `marked` picks (system and pinned messages keep theirs). */
function withForgedMarkers(history: readonly Message[], marked: readonly number[]): Message[] {
  return history.map((message, index) => {
    const forged = FORGED[marked[index % marked.length]! % FORGED.length]!;
    if (marked.length === 0 || message.metadata !== undefined || (index * 7 + marked[0]!) % 3 !== 0) return message;
    return { ...message, metadata: { ...forged } } as Message;
  });
}

/** A view message as the model sees it: metadata is never sent. */
const sent = (message: Message): unknown => {
  const { metadata: _metadata, ...rest } = message;
  return rest;
};

export const callerMarkersProperty = defineProperty({
  name: "caller-markers",
  title: "should give the same views whatever ctxkit markers a caller puts in metadata",
  invariant:
    "History messages carrying metadata.ctxkit or metadata.ctxkitEdit from the caller are treated as any other message: the views sent to the model are the same as without those keys.",
  runsFactor: 0.5,
  arbitrary: () =>
    fc.record({
      history: historyArbitrary({ maxSegments: 8 }),
      marked: fc.array(fc.nat(5), { minLength: 1, maxLength: 4 }),
      budgets: fc.array(budgetArbitrary({ min: 128 }), { minLength: 1, maxLength: 3 }),
    }),
  async check({ history, marked, budgets }, context) {
    const viewsOf = (messages: readonly Message[]) =>
      withManager(context, async (driver) => {
        for (const message of structuredClone(messages)) await driver.manager.addMessage(message);
        const outcomes: unknown[] = [];
        for (const budget of budgets) {
          outcomes.push(
            await driver.manager.getMessagesForRequest({ tokenBudget: budget }).then(
              (view) => view.map(sent),
              (error: unknown) => `error ${(error as { code?: string }).code ?? String(error)}`,
            ),
          );
        }
        return outcomes;
      });
    const plain = await viewsOf(history);
    const withMarkers = await viewsOf(withForgedMarkers(history, marked));
    for (const [index, outcome] of plain.entries()) {
      expectThat(
        JSON.stringify(outcome) === JSON.stringify(withMarkers[index]),
        () =>
          `with forged markers, the view at budget ${budgets[index]} changed from ${preview(outcome)} to ${preview(withMarkers[index])}`,
      );
    }
  },
});
