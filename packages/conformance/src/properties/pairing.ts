// Invariant 1: tool pairs stay whole and adjacent in every view, even over an already-broken history.
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { describeRequest, expectPaired, expectViewOrBudgetError } from "../checks/view-checks.js";
import { defineProperty, withManager } from "./property.js";

export const pairingProperty = defineProperty({
  name: "pairing",
  title: "should keep tool pairs whole and adjacent in every view",
  invariant:
    "In every view each tool result answers a call of the assistant message that opens its unit, and each call is answered right after it, even when the history arrived broken.",
  arbitrary: () => sessionArbitrary({ broken: true }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      for (const outcome of outcomes) {
        if (expectViewOrBudgetError(outcome)) expectPaired(outcome.view, describeRequest(outcome));
      }
    });
  },
});
