// Compaction receipts (invariant 11, its first half): every announced compaction has a receipt that tells the truth about its view.
import { canCompact, type ContextManager, type Message, type RequestOptions } from "@ctxkit/core";
import {
  canExplainView,
  canListCompactions,
  type CompactionReceiptCapability,
  type ExplainViewCapability,
  type MessageFate,
  type MessageFateRun,
  isSynthetic,
} from "@ctxkit/core/kit";
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { isEqualOrShortened } from "../checks/match-history.js";
import { describeRequest } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import { type RequestOutcome, toRequestOptions } from "../subject/manager-driver.js";
import { addToTally, defineProperty, withManager } from "./property.js";

type Receipting = ContextManager & CompactionReceiptCapability;

const NO_RECEIPTS = "no-receipts";

/**
 * Matches `view` against what `fates` say of each history message, in order: a kept message is there
 * verbatim, a cleared or trimmed one is there shortened, and every other view message is synthetic.
 * Returns what does not hold, or undefined.
 */
export function fatesDisagreeWithView(
  fates: readonly MessageFateRun[],
  history: readonly Message[],
  view: readonly Message[],
): string | undefined {
  const inView: { index: number; fate: MessageFate }[] = [];
  for (const run of fates) {
    if (run.fate !== "kept" && run.fate !== "cleared" && run.fate !== "trimmed") continue;
    for (let index = run.from; index <= run.to; index += 1) inView.push({ index, fate: run.fate });
  }
  let next = 0;
  for (const [position, message] of view.entries()) {
    const expected = inView[next];
    const original = expected === undefined ? undefined : history[expected.index];
    if (expected !== undefined && original !== undefined) {
      const matches = expected.fate === "kept" ? isDeepEqual(message, original) : isEqualOrShortened(message, original);
      if (matches) {
        next += 1;
        continue;
      }
    }
    if (!isSynthetic(message)) {
      return expected === undefined
        ? `view message ${position} (${preview(message, 80)}) is a history message the receipt does not keep in the view`
        : `view message ${position} (${preview(message, 80)}) is not history message ${expected.index}, which the receipt says is ${expected.fate}`;
    }
  }
  const missing = inView[next];
  return missing === undefined
    ? undefined
    : `the receipt says history message ${missing.index} is ${missing.fate}, but the view does not hold it`;
}

/** Whether `fates` cover history indexes 0 to `length - 1`, each exactly once, in order. */
function coverageProblem(fates: readonly MessageFateRun[], length: number): string | undefined {
  let expected = 0;
  for (const run of fates) {
    if (run.from !== expected || run.to < run.from) return `a run covers ${run.from}–${run.to} where index ${expected} was due`;
    expected = run.to + 1;
  }
  return expected === length ? undefined : `the runs end at index ${expected - 1}, but the history has ${length} messages`;
}

export const compactionReceiptsProperty = defineProperty({
  name: "compaction-receipts",
  title: "should leave a truthful receipt for every compaction, and explain the next view without changing it",
  invariant:
    "Every compaction post_compact announces has a receipt (listCompactions, getCompaction); its fates cover every history index once, what the view holds verbatim is kept and what it lacks is not, its tokensAfter is the view's count; explainView agrees with the next view.",
  exercises: {
    tally: "receipts",
    what: "compaction receipts checked",
    unreachable: (_context, tally) =>
      (tally.get(NO_RECEIPTS) ?? 0) > 0 ? "the manager has no listCompactions() and getCompaction()" : undefined,
  },
  // Each run is one walk: few runs, with tight budgets so that nearly every one compacts.
  runsFactor: 0.2,
  arbitrary: () => sessionArbitrary({ broken: true, maxEarlyRequests: 3, budget: budgetArbitrary({ min: 64, max: 4_096 }) }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const manager = driver.manager;
      if (!canListCompactions(manager)) {
        addToTally(context, NO_RECEIPTS);
        return;
      }
      const receipting: Receipting = manager;
      let listed = (await receipting.listCompactions()).length;
      let checked = 0;
      /** Checks the receipts after a request; with `newestIsItsOwn`, the newest describes its view even if it announced no compaction. */
      const checkOutcome = async (outcome: RequestOutcome, newestIsItsOwn: boolean) => {
        const where = describeRequest(outcome);
        const announced = outcome.events.filter((recorded) => recorded.event === "context:post_compact");
        const receipts = await receipting.listCompactions();
        // A bound may drop the oldest: count only while the list is short of it.
        expectThat(
          receipts.length >= Math.min(listed + announced.length, 32),
          `${where}: ${announced.length} compaction(s) announced, but listCompactions() went from ${listed} to ${receipts.length} receipt(s)`,
        );
        for (const { payload } of announced) {
          const id = (payload as { receiptId?: unknown }).receiptId;
          if (typeof id === "string")
            expectThat(
              receipts.some((receipt) => receipt.id === id),
              `${where}: post_compact names receipt ${id}, which listCompactions() does not list`,
            );
        }
        listed = receipts.length;
        if ((announced.length === 0 && !newestIsItsOwn) || outcome.view === undefined || receipts.length === 0) return;
        const newest = await receipting.getCompaction(receipts.at(-1)!.id);
        expectThat(newest !== undefined, `${where}: getCompaction() does not find the id listCompactions() listed last`);
        checked += 1;
        addToTally(context, "receipts");
        const history = await manager.getMessages();
        const coverage = coverageProblem(newest.fates, history.length);
        expectThat(coverage === undefined, () => `${where}: the receipt's fates do not cover the history: ${coverage}`);
        const disagreement = fatesDisagreeWithView(newest.fates, history, outcome.view);
        expectThat(disagreement === undefined, () => `${where}: the newest receipt disagrees with the view: ${disagreement}`);
        if (outcome.usage !== undefined)
          expectThat(
            newest.tokensAfter === outcome.usage.tokens,
            `${where}: the receipt's tokensAfter is ${newest.tokensAfter}, the view's count ${outcome.usage.tokens}`,
          );
      };
      let added = 0;
      const given = structuredClone(session.history);
      for (const request of session.requests) {
        while (added < request.after) await manager.addMessage(given[added++]!);
        await checkOutcome(await driver.request(request, added), false);
      }
      const last = session.requests.at(-1);
      // A walk that never compacted still checks one receipt: a forced compaction's, against the view that follows it,
      // at a budget the minimal view fits (the walk's own, or a larger one).
      if (checked === 0 && last !== undefined && canCompact(manager)) {
        const { budget: walked } = await driver.inRegime(last);
        for (const budget of [walked, walked * 4, walked * 16]) {
          const compacted = await manager.compact({ tokenBudget: budget }).then(
            () => true,
            () => false,
          );
          if (!compacted) continue;
          await checkOutcome(await driver.request({ budget }, added), true);
          break;
        }
      }
      if (last === undefined || !canExplainView(manager)) return;
      const options: RequestOptions = toRequestOptions(await driver.inRegime(last));
      const explanation = await (manager as ContextManager & ExplainViewCapability).explainView(options);
      const next = await driver.request(last, added);
      if (next.view === undefined) return;
      const where = `explainView() then ${describeRequest(next)}`;
      const fates: MessageFateRun[] = explanation.messages.map((message) => ({
        from: message.index,
        to: message.index,
        fate: message.form === "verbatim" ? "kept" : message.form,
      }));
      const disagreement = fatesDisagreeWithView(fates, await manager.getMessages(), next.view);
      expectThat(disagreement === undefined, () => `${where}: the explanation disagrees with the view: ${disagreement}`);
      if (next.usage !== undefined)
        expectThat(
          explanation.tokens === next.usage.tokens,
          `${where}: explainView() counted ${explanation.tokens} tokens, the view has ${next.usage.tokens}`,
        );
    });
  },
});
