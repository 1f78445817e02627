// Invariant 5: what the minimal view holds is never dropped, and instructions, pins and the latest user message never altered.
import { describeRequest, expectPreserved, expectViewOrBudgetError } from "../checks/view-checks.js";
import { defineRequestProperty } from "./property.js";

export const preservationProperty = defineRequestProperty(
  {
    name: "preservation",
    title: "should keep instructions, pinned messages and the current turn in every view",
    invariant:
      "Every view holds the system and developer messages, the pinned messages and the latest user message unaltered, and everything after that user message at least in shortened form (or stood for by a summary that declares it covers it).",
  },
  (outcome, history) => {
    if (expectViewOrBudgetError(outcome)) expectPreserved(outcome.view, history, describeRequest(outcome));
  },
);
