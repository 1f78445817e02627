import type { Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import * as contextSimple from "../../context-simple/src/index.js";
import { CONFORMANCE_PROPERTIES, DEFAULT_RUNS, PropertyViolation, replayCounterexample, runConformance } from "../src/index.js";
import * as broken from "./__fixtures__/broken-modules.js";
import { FEATURE_CASES, PLAIN_CASES, restartOptions, summaryOptions } from "./__fixtures__/broken-cases.js";
import { createRestartableModule } from "./__fixtures__/restartable-module.js";

const cases = PLAIN_CASES;
const featureCases = FEATURE_CASES;

const structuralCases = [
  { flaw: "says it is a strategy module", module: broken.wrongMeta, check: "meta" },
  { flaw: "accepts unknown config keys", module: broken.acceptsUnknownConfig, check: "config-schema" },
  { flaw: "mounts nothing", module: broken.mountsNothing, check: "mount-registers-manager" },
  { flaw: "announces no events", module: broken.compactsSilently, check: "events-contributor" },
  { flaw: "cannot be cleaned up twice", module: broken.cleanupFailsTwice, check: "cleanup" },
];

/** The message lists of a property's input: `history`, and `before`/`after` or `concurrent` for some. */
function messageListsOf(input: unknown): Record<string, Message[]> {
  return Object.fromEntries(
    Object.entries(input as Record<string, unknown>).filter(
      (entry): entry is [string, Message[]] => Array.isArray(entry[1]) && entry[0] !== "requests",
    ),
  );
}

describe("the kit on deliberately broken modules", () => {
  it("should keep a broken module for every property", () => {
    const covered = new Set([...cases, ...featureCases].map((entry) => entry.property));
    expect(CONFORMANCE_PROPERTIES.map((property) => property.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  for (const { flaw, module, property, reason, shrinksSmall = true, shrunkMessages = 4 } of cases) {
    it(`should fail the module that ${flaw} on ${property}, with a ${shrinksSmall ? "shrunk " : ""}counterexample that replays`, async () => {
      const report = await runConformance(module, { only: [property], runs: DEFAULT_RUNS, seed: 1, shrink: shrinksSmall });
      const check = report.checks.find((candidate) => candidate.name === property);
      expect(report.passed).toBe(false);
      expect(check?.status).toBe("fail");
      if (reason !== undefined) expect(check?.reason).toMatch(reason);
      const counterexample = check!.counterexample!;
      expect(counterexample).toMatchObject({ property, seed: 1 });
      expect(counterexample.path).toMatch(/^\d+(:\d+)*$/);
      // Shrunk: a few small messages (the concurrency property always adds its 50, each tiny).
      for (const [name, messages] of shrinksSmall ? Object.entries(messageListsOf(counterexample.input)) : []) {
        if (name !== "concurrent") expect(messages.length, name).toBeLessThanOrEqual(shrunkMessages);
        for (const message of messages) expect(JSON.stringify(message).length, name).toBeLessThan(400);
      }
      // Pasted as JSON into a test, the counterexample fails the broken module and passes context-simple.
      const pasted = JSON.parse(JSON.stringify(counterexample)) as typeof counterexample;
      await expect(replayCounterexample(module, pasted)).rejects.toThrow(PropertyViolation);
      await expect(replayCounterexample(contextSimple, pasted)).resolves.toBeUndefined();
    });
  }

  for (const { flaw, module, property, options, healthy = contextSimple, shrinksSmall = true } of featureCases) {
    it(`should fail the module that ${flaw} on ${property}, with a counterexample that replays`, async () => {
      const report = await runConformance(module, { ...options, only: [property], runs: DEFAULT_RUNS, seed: 1, shrink: shrinksSmall });
      const check = report.checks.find((candidate) => candidate.name === property);
      expect(check?.status, check?.reason).toBe("fail");
      const pasted = JSON.parse(JSON.stringify(check!.counterexample!)) as NonNullable<typeof check>["counterexample"] & object;
      await expect(replayCounterexample(module, pasted, options)).rejects.toThrow(PropertyViolation);
      await expect(replayCounterexample(healthy, pasted, options)).resolves.toBeUndefined();
    });
  }

  it("should pass a healthy restartable module on restart", async () => {
    const report = await runConformance(createRestartableModule("healthy", "none"), {
      ...restartOptions,
      only: ["restart"],
      runs: DEFAULT_RUNS,
      seed: 1,
    });
    expect(report.checks).toMatchObject([{ name: "restart", status: "pass" }]);
  });

  for (const { flaw, module, check } of structuralCases) {
    it(`should fail the module that ${flaw} on the structural check ${check}`, async () => {
      const report = await runConformance(module, { only: [check], runs: 1, seed: 1 });
      expect(report.checks).toMatchObject([{ name: check, status: "fail" }]);
    });
  }

  it("should skip the properties of a module that mounts nothing", async () => {
    const report = await runConformance(broken.mountsNothing, { runs: 5, seed: 1 });
    const failed = report.checks.filter((check) => check.status === "fail").map((check) => check.name);
    expect(failed).toContain("mount-registers-manager");
    expect(report.checks.filter((check) => check.kind === "property").every((check) => check.status === "skip")).toBe(true);
    expect(report.passed).toBe(false);
  });

  it("should fail, not skip, the properties of a module that mounts nothing when no structural check was selected to say so", async () => {
    const report = await runConformance(broken.mountsNothing, { runs: 5, seed: 1, only: ["pairing"] });
    expect(report.checks).toMatchObject([{ name: "pairing", status: "fail", reason: expect.stringMatching(/no manager to test/) }]);
    expect(report.passed).toBe(false);
  });
});

describe("the kit on context-simple", () => {
  it("should pass every structural check and property, optional capabilities included", async () => {
    const report = await runConformance(contextSimple, { runs: 50, seed: 1 });
    // Its sessions live and die with the manager, it has no summary strategy and its default pipeline offloads
    // nothing: the properties it has no use for, each skipped with why.
    expect(report.checks.filter((check) => check.status !== "pass")).toMatchObject([
      { name: "restart", status: "skip" },
      { name: "summary-coverage", status: "skip" },
      { name: "offload-retrieval", status: "skip" },
      { name: "partial-history-units", status: "skip" },
      { name: "shared-state", status: "skip" },
    ]);
    expect(report.capabilities).toEqual({ compact: true, recoverOverflow: true, usage: true, events: true });
    expect(report.checks.map((check) => check.name)).toEqual([
      "meta",
      "mount-function",
      "config-schema",
      "mount-registers-manager",
      "events-contributor",
      "cleanup",
      "pairing",
      "order",
      "unit-integrity",
      "reasoning-intact",
      "non-destructive",
      "budget",
      "preservation",
      "prefix-stability",
      "compaction-frequency",
      "compaction-progress",
      "resume",
      "restart",
      "clear",
      "validation",
      "concurrency",
      "events",
      "abort",
      "budget-inputs",
      "caller-markers",
      "compact",
      "compaction-receipts",
      "undo-compaction",
      "partial-compaction",
      "recover-overflow",
      "usage",
      "summary-coverage",
      "offload-retrieval",
      "partial-history-units",
      "shared-state",
    ]);
    expect(report.checks.find((check) => check.name === "compaction-frequency")?.note).toMatch(
      /^cache-stable on \d+% of \d+ follow-up requests$/,
    );
  });

  it("should pass summary-coverage with a summary pipeline on the kit's summarizer, which it really calls", async () => {
    const report = await runConformance(contextSimple, { ...summaryOptions, only: ["summary-coverage"], runs: DEFAULT_RUNS, seed: 1 });
    expect(report.checks).toMatchObject([{ name: "summary-coverage", status: "pass" }]);
    const summarized = Number(/^(\d+) of \d+ views held a summary$/.exec(report.checks[0]!.note ?? "")?.[1]);
    expect(summarized).toBeGreaterThan(10);
  });
});
