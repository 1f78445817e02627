// Invariant 6: between compactions, the next view is the previous view plus what was added since.
import type { Message } from "@ctxkit/core";
import { isSynthetic, findToolUnits } from "@ctxkit/core/kit";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { firstDifference } from "../checks/deep-equal.js";
import { describeRequest, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import type { RequestOutcome } from "../subject/manager-driver.js";
import { defineProperty, withManager, type PropertyContext } from "./property.js";

/** True when the history ends in a tool call whose results have not all arrived: the turn is still running. */
function endsWithOpenCall(history: readonly Message[]): boolean {
  let index = history.length - 1;
  const answered = new Set<string>();
  while (index >= 0 && history[index]!.role === "tool") {
    const message = history[index]!;
    if (message.role === "tool") answered.add(message.tool_call_id);
    index -= 1;
  }
  const opener = history[index];
  if (opener?.role !== "assistant" || opener.tool_calls === undefined) return false;
  return opener.tool_calls.some((call) => !answered.has(call.id));
}

/** The earlier view without its last unit when that unit was still open and answered by a synthetic result. */
export function stablePart(view: readonly Message[], history: readonly Message[]): readonly Message[] {
  const lastUnit = findToolUnits(view).at(-1);
  if (lastUnit === undefined || lastUnit.kind !== "tool" || !endsWithOpenCall(history)) return view;
  const unit = view.slice(lastUnit.start, lastUnit.end);
  return unit.some(isSynthetic) ? view.slice(0, lastUnit.start) : view;
}

/** Whether the manager compacted during `outcome`, by its events, or failing those its usage(). */
function compactedDuring(outcome: RequestOutcome, context: PropertyContext): boolean {
  if (context.capabilities.events.enabled) {
    return outcome.events.some((recorded) => recorded.event === "context:pre_compact" || recorded.event === "context:post_compact");
  }
  return outcome.usage?.compacted !== false;
}

export const prefixStabilityProperty = defineProperty({
  name: "prefix-stability",
  title: "should keep the previous view as a prefix between compactions",
  invariant:
    "With no compaction between two requests, the later view begins with the earlier view, except for a last unit that was still waiting for tool results.",
  skipReason: (context) =>
    context.capabilities.events.enabled || context.capabilities.usage.enabled
      ? undefined
      : "needs events or usage() to tell when the manager compacted",
  arbitrary: () => sessionArbitrary({ broken: true, sameBudget: true, maxEarlyRequests: 5 }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      let previous: (RequestOutcome & { view: Message[] }) | undefined;
      for (const outcome of outcomes) {
        const returned = expectViewOrBudgetError(outcome);
        if (!returned || compactedDuring(outcome, context)) {
          previous = returned ? outcome : undefined;
          continue;
        }
        if (previous !== undefined) {
          const earlier = stablePart(previous.view, session.history.slice(0, previous.after));
          const difference = firstDifference(outcome.view.slice(0, earlier.length), earlier);
          expectThat(
            difference === -1,
            () =>
              `${describeRequest(outcome)} did not compact, yet its view does not begin with the view of ${describeRequest(previous!)}: ` +
              `message ${difference} was ${preview(earlier[difference])}, now ${preview(outcome.view[difference])}`,
          );
        }
        previous = outcome;
      }
    });
  },
});
