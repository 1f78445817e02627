// usage(): the module's own figures describe the last view truthfully.
import { sessionArbitrary } from "../arbitraries/session-arbitrary.js";
import { countViewTokens, findCoreCounter } from "../checks/count-view-tokens.js";
import { describeRequest, expectViewOrBudgetError } from "../checks/view-checks.js";
import { expectThat, preview } from "../checks/violation.js";
import { defineProperty, withManager } from "./property.js";

export const usageProperty = defineProperty({
  name: "usage",
  title: "should report truthful usage() figures for the last view",
  invariant:
    "usage() is undefined before the first request; after each view it reports that view's message count, tokens ≤ its budget ≤ the requested budget, and tokens equal to core's count when it names a counter core has.",
  exercises: { tally: "calls:usage", what: "usage() reads" },
  requires: "usage",
  arbitrary: () => sessionArbitrary({ broken: true }),
  async check(session, context) {
    await withManager(context, async (driver) => {
      const initial = await driver.readUsage();
      expectThat(initial === undefined, () => `usage() before any request returned ${preview(initial)}, not undefined`);
      const { outcomes } = await driver.walk(session);
      for (const outcome of outcomes) {
        if (!expectViewOrBudgetError(outcome)) continue;
        const where = describeRequest(outcome);
        const usage = outcome.usage;
        expectThat(usage !== undefined, `${where}: usage() returned undefined after a view`);
        expectThat(
          typeof usage.counter === "string" && usage.counter !== "",
          () => `${where}: usage().counter is ${preview(usage.counter)}, not a counter name`,
        );
        expectThat(
          usage.messageCount === outcome.view.length,
          `${where}: usage().messageCount is ${usage.messageCount}, the view has ${outcome.view.length}`,
        );
        expectThat(usage.tokens <= usage.budget, `${where}: usage() reports ${usage.tokens} tokens over its budget ${usage.budget}`);
        expectThat(usage.budget <= outcome.budget, `${where}: usage().budget ${usage.budget} is above the requested budget`);
        if (findCoreCounter(usage.counter) !== undefined) {
          const counted = countViewTokens(outcome.view, usage.counter);
          expectThat(
            counted === usage.tokens,
            `${where}: usage() reports ${usage.tokens} tokens, but core's ${usage.counter} counts ${counted} in the view`,
          );
        }
      }
    });
  },
});
