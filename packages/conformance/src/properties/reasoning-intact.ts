// Reasoning parts (a model's thinking, often signed or encrypted) are kept byte-identical or dropped
// with their whole unit: a provider rejects a signed thinking block that was edited or cut.
import type { ContentPart, Message } from "@ctxkit/core";
import { isSynthetic } from "@ctxkit/core/kit";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { isEqualOrShortened } from "../checks/match-history.js";
import { describeRequest, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import { addToTally, defineProperty, withManager, COMPACTIONS_EXERCISED } from "./property.js";

const REASONING_TYPES = new Set(["reasoning", "thinking", "redacted_thinking"]);

export function reasoningPartsOf(message: Message): ContentPart[] {
  return Array.isArray(message.content) ? message.content.filter((part) => REASONING_TYPES.has(part.type)) : [];
}

/** The message without its reasoning parts: what a manager that strips reasoning would leave. */
function withoutReasoning(message: Message): unknown {
  if (!Array.isArray(message.content)) return message;
  return { ...message, content: message.content.filter((part) => !REASONING_TYPES.has(part.type)) };
}

/** Taken from `original`: equal or shortened, or equal but for its reasoning parts (stripped or edited). */
function isTakenFrom(candidate: Message, original: Message): boolean {
  return (
    isEqualOrShortened(candidate, original) ||
    (reasoningPartsOf(original).length > 0 && isDeepEqual(withoutReasoning(candidate), withoutReasoning(original)))
  );
}

/** The history message each non-synthetic view message was taken from (earliest embedding), or undefined. */
function matchSources(view: readonly Message[], history: readonly Message[]): Array<Message | undefined> {
  let cursor = 0;
  return view.map((message) => {
    if (isSynthetic(message)) return undefined;
    // An exact copy names its source: a message equal to a later one must not be matched to an earlier one it merely
    // resembles (two assistant messages with the same call ids, one with reasoning parts and one without).
    const exact = history.findIndex((candidate, index) => index >= cursor && isDeepEqual(message, candidate));
    if (exact !== -1) {
      cursor = exact + 1;
      return history[exact];
    }
    while (cursor < history.length && !isTakenFrom(message, history[cursor]!)) cursor += 1;
    return cursor < history.length ? history[cursor++] : undefined;
  });
}

export const reasoningIntactProperty = defineProperty({
  name: "reasoning-intact",
  title: "should keep reasoning parts byte-identical, or drop them with their whole unit",
  invariant:
    "Every reasoning or thinking content part in a view is byte-identical to one in the history, and a view message taken from a history message with reasoning parts carries all of them, unchanged and in order.",
  exercises: COMPACTIONS_EXERCISED,
  describeTally: (tally) => {
    const views = tally.get("views") ?? 0;
    return views === 0 ? undefined : `${tally.get("reasoning") ?? 0} of ${views} views held reasoning parts`;
  },
  arbitrary: () => sessionArbitrary({ broken: true, maxEarlyRequests: 3 }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      for (const outcome of outcomes) {
        if (!expectViewOrBudgetError(outcome)) continue;
        const where = describeRequest(outcome);
        const history = session.history.slice(0, outcome.after);
        const known = history.flatMap(reasoningPartsOf);
        addToTally(context, "views");
        if (outcome.view.some((message) => reasoningPartsOf(message).length > 0)) addToTally(context, "reasoning");
        for (const message of outcome.view) {
          for (const part of reasoningPartsOf(message)) {
            expectThat(
              known.some((original) => isDeepEqual(original, part)),
              () => `${where}: a ${part.type} part in the view is not byte-identical to any in the history (edited): ${preview(part)}`,
            );
          }
        }
        const sources = matchSources(outcome.view, history);
        outcome.view.forEach((message, position) => {
          const source = sources[position];
          if (source === undefined) return;
          const expected = reasoningPartsOf(source);
          if (expected.length === 0) return;
          expectThat(
            isDeepEqual(reasoningPartsOf(message), expected),
            () =>
              `${where}: view message ${position} was taken from a history message with ${expected.length} reasoning part(s) but carries ${preview(reasoningPartsOf(message))}: reasoning must stay whole or leave with its unit`,
          );
        });
      }
    });
  },
});
