// Invariant 2: a view takes its messages from the history in history order; anything else is marked synthetic.
import { describeRequest, expectTakenInOrder, expectViewOrBudgetError } from "../checks/view-checks.js";
import { defineRequestProperty } from "./property.js";

export const orderProperty = defineRequestProperty(
  {
    name: "order",
    title: "should take view messages from the history in history order",
    invariant:
      "Every view message is either synthetic (it carries metadata.ctxkit) or a distinct history message, whole or shortened, and those appear in history order.",
  },
  (outcome, history) => {
    if (expectViewOrBudgetError(outcome)) expectTakenInOrder(outcome.view, history, describeRequest(outcome));
  },
);
