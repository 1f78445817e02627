// Progress: each compaction reaches its target or says why it could not, and a request with nothing
// new since the last one compacts nothing (no compaction loop).
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { describeRequest, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import type { RecordedEvent } from "../subject/record-events.js";
import { defineProperty, withManager, COMPACTIONS_EXERCISED } from "./property.js";

/** Requests repeated with nothing new: one would show a loop that compacts on every call, two one that alternates. */
const REPEATS = 2;

const SHORTFALL_REASONS = new Set(["protected", "strategies"]);

/**
 * A post_compact names its `target`, within its budget, and reports `shortOfTarget` exactly when its
 * view ended above it: `protected` only when what may not be dropped (`requiredTokens`) passes the target.
 */
function checkTargetReport(recorded: RecordedEvent, where: string): void {
  const payload = recorded.payload as
    | { tokenCount?: unknown; budget?: unknown; target?: unknown; shortOfTarget?: { reason?: unknown; requiredTokens?: unknown } }
    | undefined;
  const { tokenCount, budget, target, shortOfTarget } = payload ?? {};
  if (typeof tokenCount !== "number" || typeof budget !== "number") return; // the events property reports these
  expectThat(
    typeof target === "number" && Number.isFinite(target) && target >= 0 && target <= budget,
    () => `${where}: post_compact names no target within its budget ${budget} (target: ${preview(target)})`,
  );
  if (tokenCount <= target) {
    expectThat(
      shortOfTarget === undefined,
      () =>
        `${where}: post_compact reached its target (${tokenCount} of ${target} tokens) yet reports shortOfTarget ${preview(shortOfTarget)}`,
    );
    return;
  }
  expectThat(
    shortOfTarget !== undefined,
    () =>
      `${where}: the compaction ended at ${tokenCount} tokens, above its target ${target}, and its post_compact does not say why (shortOfTarget)`,
  );
  const { reason, requiredTokens } = shortOfTarget;
  expectThat(
    SHORTFALL_REASONS.has(reason as string) && typeof requiredTokens === "number" && requiredTokens >= 0 && requiredTokens <= tokenCount,
    () =>
      `${where}: shortOfTarget ${preview(shortOfTarget)} is not a reason ("protected" or "strategies") with requiredTokens within the view's ${tokenCount}`,
  );
  expectThat(
    reason !== "protected" || requiredTokens > target,
    () =>
      `${where}: shortOfTarget says what may not be dropped passes the target, but it is ${requiredTokens} tokens, within the target ${target}`,
  );
}

export const compactionProgressProperty = defineProperty({
  name: "compaction-progress",
  title: "should reach each compaction's target or say why not, and not compact again when nothing new arrived (no compaction loop)",
  invariant:
    "Each post_compact names its target and, exactly when its view ended above it, why (shortOfTarget: what may not be dropped passes the target, or the strategies stopped short). Once a request returned a view, the same request repeated with nothing added announces no compaction and returns the same view.",
  exercises: COMPACTIONS_EXERCISED,
  requires: "events",
  arbitrary: () => sessionArbitrary({ broken: true, maxEarlyRequests: 2 }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      for (const outcome of outcomes) {
        for (const recorded of outcome.events)
          if (recorded.event === "context:post_compact") checkTargetReport(recorded, describeRequest(outcome));
      }
      const last = outcomes.at(-1)!;
      if (!expectViewOrBudgetError(last)) return;
      for (let repeat = 1; repeat <= REPEATS; repeat += 1) {
        const again = await driver.request(last, last.after);
        const where = `${describeRequest(last)}, repeated ${repeat} time(s) with nothing added,`;
        const compactions = again.events.filter((recorded) => recorded.event === "context:pre_compact");
        expectThat(
          compactions.length === 0,
          () => `${where} compacted again (${compactions.length} pre_compact): a compaction loop, ${preview(compactions, 200)}`,
        );
        expectThat(
          again.view !== undefined && isDeepEqual(again.view, last.view),
          () => `${where} returned a different view: was ${preview(last.view, 200)}, now ${preview(again.view ?? again.error, 200)}`,
        );
      }
    });
  },
});
