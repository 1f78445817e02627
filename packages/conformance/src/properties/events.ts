// Events: compactions and repairs are announced, and their figures agree with the views they produced.
import type { Message } from "@ctxkit/core";
import { checkToolPairs, isSynthetic, repairToolPairs } from "@ctxkit/core/kit";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { describeRequest, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import type { RequestOutcome } from "../subject/manager-driver.js";
import type { RecordedEvent } from "../subject/record-events.js";
import { defineProperty, withManager, COMPACTIONS_EXERCISED } from "./property.js";

interface CompactionFigures {
  messageCount: number;
  tokenCount: number;
  budget: number;
}

function figuresOf(recorded: RecordedEvent, where: string): CompactionFigures {
  const payload = recorded.payload as Partial<CompactionFigures> | undefined;
  const isCount = (value: unknown) => typeof value === "number" && Number.isFinite(value) && value >= 0;
  expectThat(
    isCount(payload?.messageCount) && isCount(payload?.tokenCount) && isCount(payload?.budget),
    () => `${where}: ${recorded.event} lacks numeric messageCount, tokenCount and budget: ${preview(payload)}`,
  );
  return payload as CompactionFigures;
}

/** pre/post pairs in order; each post agrees with its pre, and the last one with the returned view. */
function checkCompactionEvents(outcome: RequestOutcome, where: string): number {
  const compactions = outcome.events.filter(
    (recorded) => recorded.event === "context:pre_compact" || recorded.event === "context:post_compact",
  );
  let pre: CompactionFigures | undefined;
  let post: CompactionFigures | undefined;
  for (const recorded of compactions) {
    const figures = figuresOf(recorded, where);
    if (recorded.event === "context:pre_compact") {
      expectThat(pre === undefined, `${where}: two pre_compact events without a post_compact between them`);
      expectThat(figures.budget <= outcome.budget, `${where}: pre_compact reports budget ${figures.budget}, above the requested budget`);
      pre = figures;
      continue;
    }
    expectThat(pre !== undefined, `${where}: post_compact without a pre_compact before it`);
    expectThat(
      figures.budget === pre.budget,
      `${where}: post_compact budget ${figures.budget} differs from pre_compact budget ${pre.budget}`,
    );
    expectThat(
      figures.tokenCount <= figures.budget,
      `${where}: post_compact reports ${figures.tokenCount} tokens, over its budget ${figures.budget}`,
    );
    expectThat(
      figures.tokenCount <= pre.tokenCount,
      `${where}: compaction grew the view from ${pre.tokenCount} to ${figures.tokenCount} tokens`,
    );
    post = figures;
    pre = undefined;
  }
  expectThat(
    pre === undefined || outcome.view === undefined,
    `${where}: a pre_compact had no post_compact, yet the request returned a view`,
  );
  if (post !== undefined && outcome.view !== undefined) {
    expectThat(
      post.messageCount === outcome.view.length,
      `${where}: post_compact reports ${post.messageCount} messages, the view has ${outcome.view.length}`,
    );
    if (outcome.usage !== undefined) {
      expectThat(
        post.tokenCount === outcome.usage.tokens,
        `${where}: post_compact reports ${post.tokenCount} tokens, usage() ${outcome.usage.tokens}`,
      );
    }
  }
  return compactions.length;
}

function reportedRepairIds(events: readonly RecordedEvent[], kind: string): Set<string> {
  const ids = new Set<string>();
  for (const recorded of events) {
    const payload = recorded.payload as { kind?: unknown; toolCallIds?: unknown } | undefined;
    if (recorded.event !== "context:repair" || payload?.kind !== kind || !Array.isArray(payload.toolCallIds)) continue;
    for (const id of payload.toolCallIds) ids.add(String(id));
  }
  return ids;
}

/** Before any compaction a view holds every message repair keeps, unaltered; synthetic ones may be added. */
function checkUncompactedView(view: readonly Message[], history: readonly Message[], where: string): void {
  const taken = view.filter((message) => !isSynthetic(message));
  const expected = repairToolPairs(history).messages.filter((message) => !isSynthetic(message));
  expectThat(
    isDeepEqual(taken, expected),
    () =>
      `${where}: no compaction was announced, yet the view's ${taken.length} history message(s) are not the ${expected.length} of the repaired history: ${preview(view, 300)}`,
  );
}

export const eventsProperty = defineProperty({
  name: "events",
  title: "should announce compactions and repairs consistently with the views",
  invariant:
    "pre_compact and post_compact come in pairs whose counts match the views (and usage()), a view with no compaction announced is the whole repaired history, and each repair is announced with context:repair.",
  exercises: COMPACTIONS_EXERCISED,
  requires: "events",
  arbitrary: () => sessionArbitrary({ broken: true }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      let compactions = 0;
      for (const outcome of outcomes) {
        const where = describeRequest(outcome);
        const history = session.history.slice(0, outcome.after);
        const isFirstCompaction = compactions === 0;
        compactions += checkCompactionEvents(outcome, where);
        const firstPre = outcome.events.find((recorded) => recorded.event === "context:pre_compact");
        if (isFirstCompaction && firstPre !== undefined) {
          // Nothing was compacted before, so the view about to be compacted holds the whole repaired history.
          const kept = repairToolPairs(history).messages.filter((message) => !isSynthetic(message)).length;
          const { messageCount } = figuresOf(firstPre, where);
          expectThat(
            messageCount >= kept,
            `${where}: the first pre_compact reports ${messageCount} messages, but the uncompacted view holds at least the ${kept} the history keeps`,
          );
        }
        if (!expectViewOrBudgetError(outcome)) continue;
        const allEvents = driver.eventsSince(0);
        const danglingReported = reportedRepairIds(allEvents, "dangling_call");
        for (const message of outcome.view) {
          if (message.role !== "tool" || message.metadata?.ctxkit?.source !== "repair") continue;
          expectThat(
            danglingReported.has(message.tool_call_id),
            `${where}: the view answers dangling call ${message.tool_call_id} with a repair, but no context:repair announced it`,
          );
        }
        if (compactions > 0) continue;
        checkUncompactedView(outcome.view, history, where);
        const orphansReported = reportedRepairIds(allEvents, "orphan_result");
        for (const violation of checkToolPairs(history)) {
          if (violation.kind === "dangling_call" || violation.kind === "duplicate_call_id") continue;
          expectThat(
            orphansReported.has(violation.toolCallId),
            `${where}: result ${violation.toolCallId} (${violation.kind}) was left out, but no context:repair announced it`,
          );
        }
      }
    });
  },
});
