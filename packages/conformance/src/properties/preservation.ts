// Invariant 5: what the minimal view holds is never dropped, and instructions, pins and the latest user message never altered.
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { describeRequest, expectPreserved, expectViewOrBudgetError } from "../checks/view-checks.js";
import { defineProperty, withManager } from "./property.js";

export const preservationProperty = defineProperty({
  name: "preservation",
  title: "should keep instructions, pinned messages and the current turn in every view",
  invariant:
    "Every view holds the system and developer messages, the pinned messages and the latest user message unaltered, and everything after that user message at least in shortened form.",
  arbitrary: () => sessionArbitrary({ broken: true }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      for (const outcome of outcomes) {
        if (!expectViewOrBudgetError(outcome)) continue;
        expectPreserved(outcome.view, session.history.slice(0, outcome.after), describeRequest(outcome));
      }
    });
  },
});
