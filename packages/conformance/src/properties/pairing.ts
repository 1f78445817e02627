// Invariant 1: tool pairs stay whole and adjacent in every view, even over an already-broken history.
import { describeRequest, expectPaired, expectViewOrBudgetError } from "../checks/view-checks.js";
import { defineRequestProperty } from "./property.js";

export const pairingProperty = defineRequestProperty(
  {
    name: "pairing",
    title: "should keep tool pairs whole and adjacent in every view",
    invariant:
      "In every view each tool result answers a call of the assistant message that opens its unit, and each call is answered right after it, even when the history arrived broken.",
  },
  (outcome) => {
    if (expectViewOrBudgetError(outcome)) expectPaired(outcome.view, describeRequest(outcome));
  },
);
