// A summary may claim to stand for history messages only if the summarizer was given them (or they are still in the view).
import type { Message } from "@ctxkit/core";
import { isSynthetic } from "@ctxkit/core/kit";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { isEqualOrShortened } from "../checks/match-history.js";
import { describeRequest, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import type { RecordedSummaryCall } from "../subject/recording-summarizer.js";
import { addToTally, defineProperty, withManager } from "./property.js";

function coveredThroughOf(message: Message): number | undefined {
  const summary = message.metadata?.ctxkit?.["summary"] as { coveredThrough?: unknown } | undefined;
  return typeof summary?.coveredThrough === "number" ? summary.coveredThrough : undefined;
}

function wasSent(message: Message, calls: readonly RecordedSummaryCall[]): boolean {
  return calls.some((call) => call.messages.some((sent) => isEqualOrShortened(sent, message)));
}

export const summaryCoverageProperty = defineProperty({
  name: "summary-coverage",
  title: "should claim summary coverage only for what the summarizer was given",
  invariant:
    "Each history message up to a summary's metadata.ctxkit.summary.coveredThrough is still in the view or was sent (whole or shortened) to the summarizer the kit supplied.",
  exercises: { tally: "summarized", what: "views holding a summary" },
  skipReason: (context) =>
    context.features?.summarizer === true
      ? undefined
      : "not declared summarizer: true, for a summary strategy on the kit's settings.summarizer",
  // Tight budgets, so that summaries are made; and often a current turn of tool units, right after what they cover.
  arbitrary: () =>
    sessionArbitrary({ broken: true, maxEarlyRequests: 4, budget: budgetArbitrary({ min: 64, max: 4_096 }), currentTurnWithTools: true }),
  describeTally: (tally) => {
    const views = tally.get("views") ?? 0;
    return views === 0 ? undefined : `${tally.get("summarized") ?? 0} of ${views} views held a summary`;
  },
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      const { calls } = driver.instance.settings.summarizer;
      for (const outcome of outcomes) {
        if (!expectViewOrBudgetError(outcome)) continue;
        addToTally(context, "views");
        const history = session.history.slice(0, outcome.after);
        const claims = outcome.view.map(coveredThroughOf).filter((covered): covered is number => covered !== undefined);
        if (claims.length === 0) continue;
        addToTally(context, "summarized");
        const covered = Math.max(...claims);
        const where = describeRequest(outcome);
        expectThat(
          covered < history.length,
          `${where}: a summary claims to cover through history message ${covered}, but the history has ${history.length}`,
        );
        for (let index = 0; index <= covered; index += 1) {
          const message = history[index]!;
          if (isSynthetic(message) || outcome.view.some((viewed) => isEqualOrShortened(viewed, message)) || wasSent(message, calls))
            continue;
          expectThat(
            false,
            () =>
              `${where}: a summary claims to cover through history message ${covered}, but message ${index} is neither in the view nor was it ever sent to the summarizer: ${preview(message)}`,
          );
        }
      }
    });
  },
});
