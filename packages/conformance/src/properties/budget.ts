// Invariant 4: a view fits its budget, or the manager says (truthfully) that even the minimal view cannot.
import { expectWithinBudget } from "../checks/view-checks.js";
import { defineRequestProperty } from "./property.js";

export const budgetProperty = defineRequestProperty(
  {
    name: "budget",
    title: "should fit every view in its budget or throw a justified ContextBudgetError",
    invariant:
      "Every view's tokens, counted by the module's usage() when it has one and by core's exact counter otherwise, are within the budget; otherwise the request throws ContextBudgetError with required > budget.",
  },
  (outcome) => expectWithinBudget(outcome),
);
