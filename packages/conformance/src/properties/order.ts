// Invariant 2: a view takes its messages from the history in history order; anything else is marked synthetic.
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { describeRequest, expectTakenInOrder, expectViewOrBudgetError } from "../checks/view-checks.js";
import { defineProperty, withManager } from "./property.js";

export const orderProperty = defineProperty({
  name: "order",
  title: "should take view messages from the history in history order",
  invariant:
    "Every view message is either synthetic (it carries metadata.ctxkit) or a distinct history message, whole or shortened, and those appear in history order.",
  arbitrary: () => sessionArbitrary({ broken: true }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const { outcomes } = await driver.walk(session);
      for (const outcome of outcomes) {
        if (!expectViewOrBudgetError(outcome)) continue;
        expectTakenInOrder(outcome.view, session.history.slice(0, outcome.after), describeRequest(outcome));
      }
    });
  },
});
