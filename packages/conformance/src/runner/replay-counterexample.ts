// Replays a pasted counterexample against a subject, so a failure becomes a plain regression test.
import { ContextArgumentError } from "@ctxkit/core";
import { describeError, PropertyViolation } from "../checks/violation.js";
import { CONFORMANCE_PROPERTIES } from "../properties/all-properties.js";
import { resolveSubject, unwrapDefaultExport, type ConformanceSubject } from "../subject/subject.js";
import type { Counterexample } from "./report.js";
import { createPropertyContext, probeCapabilities, type ConformanceOptions } from "./run-conformance.js";

/**
 * Runs one property's check on the counterexample's input, once. Resolves when the invariant holds
 * and rejects with the violation otherwise, so `await replayCounterexample(...)` is a whole test.
 */
export async function replayCounterexample(
  input: ConformanceSubject,
  counterexample: Pick<Counterexample, "property" | "input" | "regime">,
  options: Pick<
    ConformanceOptions,
    "capabilities" | "config" | "subscribe" | "concurrentAdds" | "restart" | "summarizer" | "sharedStore"
  > = {},
): Promise<void> {
  const property = CONFORMANCE_PROPERTIES.find((candidate) => candidate.name === counterexample?.property);
  if (property === undefined) {
    throw new ContextArgumentError("replayCounterexample", [
      {
        path: "counterexample.property",
        message: `no conformance property is named ${JSON.stringify(counterexample?.property)}; pass a counterexample from a report`,
      },
    ]);
  }
  const subject = resolveSubject(unwrapDefaultExport(input) as ConformanceSubject, {
    config: options.config ?? {},
    subscribe: options.subscribe,
    restart: options.restart,
  });
  const capabilities = await probeCapabilities(subject, options.capabilities);
  try {
    const context = createPropertyContext(subject, capabilities, options);
    await property.check(counterexample.input, { ...context, regime: counterexample.regime ?? "any" });
  } catch (error) {
    if (error instanceof PropertyViolation) throw error;
    throw new PropertyViolation(`${counterexample.property}: the manager threw ${describeError(error)}`);
  }
}
