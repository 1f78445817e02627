// The conformance kit's entry points answer bad input with typed ctxkit errors naming the field.
import { ContextError } from "@ctxkit/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { budgetArbitrary } from "./arbitraries/budget-arbitrary.js";
import { replayCounterexample } from "./runner/replay-counterexample.js";
import { runConformance } from "./runner/run-conformance.js";
import { resolveSubject } from "./subject/subject.js";

async function errorOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

// Never called: every case is refused before a manager is made.
const factory = (() => undefined) as never;

const cases: Array<{ call: string; field: string; run: () => unknown }> = [
  { call: "runConformance", field: "options.only", run: () => runConformance(factory, { runs: 1, only: ["pairng"] }) },
  {
    call: "replayCounterexample",
    field: "counterexample.property",
    run: () => replayCounterexample(factory, { property: "nope", input: [] }),
  },
  { call: "resolveSubject", field: "subject", run: () => resolveSubject(42 as never) },
  { call: "budgetArbitrary", field: "options", run: () => budgetArbitrary({ min: 10, max: 5 }) },
];

describe("typed errors at the conformance kit's entry points", () => {
  it.each(cases)("$call should throw a ContextArgumentError naming $field", async ({ field, run }) => {
    const error = await errorOf(run);
    expect(error).toBeInstanceOf(ContextError);
    expect(error).toMatchObject({ code: "CONTEXT_ARGUMENT" });
    expect((error as Error).message).toContain(field);
  });

  it("should take any JSON as a subject or a budget range and answer with a ContextError when it cannot", async () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer(), fc.integer(), (subject, min, max) => {
        for (const call of [() => resolveSubject(subject as never), () => budgetArbitrary({ min, max })]) {
          try {
            call();
          } catch (error) {
            expect(error).toBeInstanceOf(ContextError);
          }
        }
      }),
    );
  });
});
