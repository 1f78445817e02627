// A restless module compacts (a prompt-cache miss) although what it would send fits with room to spare.
import type { Message } from "@ctxkit/core";
import { isSynthetic, repairToolPairs } from "@ctxkit/core/kit";
import { roomyBudgetSpecificationArbitrary } from "../arbitraries/budget-specification.js";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { countViewTokens } from "../checks/count-view-tokens.js";
import { firstDifference } from "../checks/deep-equal.js";
import { exactCounterFor } from "../checks/expect-exact-fit.js";
import { describeRequest, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import type { RequestOutcome } from "../subject/manager-driver.js";
import { stablePart } from "./prefix-stability.js";
import { addToTally, defineProperty, withManager } from "./property.js";

/** Under the default compaction threshold (0.8), so no hysteresis setting excuses a compaction here. */
export const ROOMY_SHARE = 0.7;

export const compactionFrequencyProperty = defineProperty({
  name: "compaction-frequency",
  title: "should not compact while the previous view plus what was added fits with room to spare",
  invariant: `When the previous view plus the messages added since (and any repairs) fits in ${ROOMY_SHARE * 100}% of the budget (core's exact count), the next view begins with the previous view, whatever events it announces, unless a compaction with reason \`limit\` (a message window that moved) dropped messages.`,
  // Half the runs: each walks a whole session, as prefix-stability does, and the two share most cases.
  exercises: { tally: "requests", what: "follow-up requests compared" },
  runsFactor: 0.5,
  arbitrary: () =>
    sessionArbitrary({
      broken: true,
      sameBudget: true,
      maxEarlyRequests: 5,
      everyMessage: true,
      providers: false,
      budgetSpecification: roomyBudgetSpecificationArbitrary(),
    }),
  describeTally: (tally) => {
    const requests = tally.get("requests") ?? 0;
    if (requests === 0) return undefined;
    return `cache-stable on ${Math.round((100 * (tally.get("stable") ?? 0)) / requests)}% of ${requests} follow-up requests`;
  },
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      let previous: (RequestOutcome & { view: Message[] }) | undefined;
      for (const outcome of outcomes) {
        if (!expectViewOrBudgetError(outcome)) {
          previous = undefined;
          continue;
        }
        if (previous !== undefined) {
          const earlier = stablePart(previous.view, session.history.slice(0, previous.after));
          const isStable = firstDifference(outcome.view.slice(0, earlier.length), earlier) === -1;
          addToTally(context, "requests");
          if (isStable) addToTally(context, "stable");
          const counter = exactCounterFor(outcome.usage);
          const added = session.history.slice(previous.after, outcome.after);
          // Generous on purpose: every repair the whole history needs is counted as if it were new.
          const repairs = repairToolPairs(session.history.slice(0, outcome.after)).messages.filter(isSynthetic);
          const wouldSend = countViewTokens(previous.view, counter) + countViewTokens(added, counter) + countViewTokens(repairs, counter);
          // A documented limit on every view (a message window) moves under the threshold by design; it must drop
          // history messages to count (repairs are left out: a new message may bring several).
          const fromHistory = (view: readonly Message[]) => view.filter((message) => !isSynthetic(message)).length;
          const movedWindow =
            outcome.events.some(
              (event) => event.event === "context:pre_compact" && (event.payload as { reason?: unknown })?.reason === "limit",
            ) && fromHistory(outcome.view) < fromHistory(previous.view) + added.length;
          expectThat(
            isStable || movedWindow || wouldSend > ROOMY_SHARE * outcome.budget,
            () =>
              `${describeRequest(outcome)} compacted (its view no longer begins with the previous one) although the previous view plus the ` +
              `${added.length} message(s) added since is ${wouldSend} tokens, within ${ROOMY_SHARE * 100}% of the budget: ` +
              `was ${preview(earlier, 200)}, now ${preview(outcome.view, 200)}`,
          );
        }
        previous = outcome;
      }
    });
  },
});
