// Progress: a request with nothing new since the last one compacts nothing; no compaction loop.
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { isDeepEqual } from "../checks/deep-equal.js";
import { describeRequest, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import { defineProperty, withManager } from "./property.js";

/** Requests repeated with nothing new: one would show a loop that compacts on every call, two one that alternates. */
const REPEATS = 2;

export const compactionProgressProperty = defineProperty({
  name: "compaction-progress",
  title: "should not compact again when nothing new arrived (no compaction loop)",
  invariant:
    "Once a request returned a view, the same request repeated with nothing added announces no compaction (its compaction either reached its target or could not, and nothing has changed since) and returns the same view.",
  requires: "events",
  arbitrary: () => sessionArbitrary({ broken: true, maxEarlyRequests: 2 }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
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
