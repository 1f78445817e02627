// A property whose runs never reach what it checks fails ("never exercised"), instead of passing over nothing.
import { ContextBudgetError } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import * as contextSimple from "../../context-simple/src/index.js";
import { DEFAULT_RUNS, runConformance } from "../src/index.js";
import { UNEXERCISING_CASES } from "./__fixtures__/broken-cases.js";

describe("the never-exercised rule", () => {
  for (const { flaw, module, property, reason } of UNEXERCISING_CASES) {
    it(`should fail the module that ${flaw} on ${property}, which passed every run (regression)`, async () => {
      const report = await runConformance(module, { only: [property], runs: DEFAULT_RUNS, seed: 1 });
      const check = report.checks.find((candidate) => candidate.name === property);
      expect(check?.status).toBe("fail");
      expect(check?.reason).toMatch(reason ?? /^never exercised: /);
      expect(check?.exercised?.count).toBe(0);
      expect(check?.counterexample).toBeUndefined();
    });

    it(`should pass context-simple on ${property}, counting what it exercised`, async () => {
      const report = await runConformance(contextSimple, { only: [property], runs: DEFAULT_RUNS, seed: 1 });
      const check = report.checks.find((candidate) => candidate.name === property);
      expect(check?.status).toBe("pass");
      expect(check?.exercised?.count).toBeGreaterThan(0);
    });
  }

  it("should count views where a factory's compactions cannot be heard, and fail one that returns none", async () => {
    const { createSimpleContext } = contextSimple;
    const refusing = () => {
      const { addMessage, getMessages, setMessages, clear } = createSimpleContext();
      // Every request refused as if even the minimal view could not fit: pairing has no view to check.
      const refuse = () => Promise.reject(new ContextBudgetError(1, 2));
      return { addMessage, getMessages, setMessages, clear, getMessagesForRequest: refuse };
    };
    const report = await runConformance(refusing, { only: ["pairing"], runs: 5, seed: 1 });
    expect(report.checks[0]).toMatchObject({ status: "fail", exercised: { what: "views returned", count: 0 } });
    const healthy = await runConformance(() => createSimpleContext(), { only: ["pairing"], runs: 20, seed: 1 });
    expect(healthy.checks[0]).toMatchObject({ status: "pass", exercised: { what: "views returned" } });
  });

  it("should report how often each property exercised what it checks", async () => {
    const report = await runConformance(contextSimple, { runs: 20, seed: 1 });
    const properties = report.checks.filter((check) => check.kind === "property" && check.status === "pass");
    expect(properties.length).toBeGreaterThan(15);
    for (const check of properties) expect(check.exercised?.count, check.name).toBeGreaterThan(0);
  });
});
