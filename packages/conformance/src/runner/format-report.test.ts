import { describe, expect, it } from "vitest";
import { formatCounterexample, formatReport } from "./format-report.js";
import type { ConformanceReport } from "./report.js";

const counterexample = {
  property: "budget",
  seed: 7,
  path: "1:2:3",
  shrinks: 4,
  input: { history: [{ role: "tool", tool_call_id: "call_1", content: "x".repeat(5_000) }], requests: [{ after: 1, budget: 10 }] },
};

const report: ConformanceReport = {
  subject: "example",
  kind: "module",
  seed: 7,
  runs: 100,
  capabilities: { compact: true, recoverOverflow: false, usage: true, events: true },
  checks: [
    { name: "meta", kind: "structural", description: "meta", status: "pass", durationMs: 1 },
    {
      name: "budget",
      kind: "property",
      description: "Views fit.",
      status: "fail",
      durationMs: 1_500,
      runs: 12,
      reason: "too big",
      counterexample,
    },
    {
      name: "recover-overflow",
      kind: "property",
      description: "Smaller.",
      status: "skip",
      durationMs: 0,
      reason: "the manager has no recoverOverflow()",
    },
  ],
  passed: false,
  counts: { pass: 1, fail: 1, skip: 1 },
  durationMs: 2_000,
};

describe("formatCounterexample", () => {
  it("should print pasteable JSON, exact when strings are short", () => {
    const short = { ...counterexample, input: { history: [], requests: [{ after: 0, budget: 1 }] } };
    expect(JSON.parse(formatCounterexample(short))).toEqual({ property: "budget", seed: 7, path: "1:2:3", input: short.input });
  });

  it("should shorten long strings of the input only, and say so", () => {
    const text = formatCounterexample({ ...counterexample, path: "9".repeat(2_000) }, 100);
    expect(text).toContain("… [4900 more characters]");
    expect(text).toContain("9".repeat(2_000));
    expect(text).toMatch(/1 long string\(s\) shortened/);
  });
});

describe("formatReport", () => {
  it("should print one line per check, the failure with its counterexample and replay command, and a verdict", () => {
    const text = formatReport(report, { replayCommand: "ctxkit-conformance ./example" });
    expect(text).toContain("ctxkit conformance: example (module), seed 7, 100 runs per property");
    expect(text).toMatch(/pass {2}meta/);
    expect(text).toMatch(/FAIL {2}budget +12 runs +1\.5s/);
    expect(text).toMatch(/skip {2}recover-overflow +\(the manager has no recoverOverflow\(\)\)/);
    expect(text).toContain("Counterexample (shrunk 4 time(s)):");
    expect(text).toContain("Replay: ctxkit-conformance ./example --only budget --seed 7 --path 1:2:3");
    expect(text).toContain("FAILED: example: 1 passed, 1 failed, 1 skipped in 2.0s");
    expect(text).not.toContain("\u001b[");
  });

  it("should print what a property measured on its line and again before the verdict", () => {
    const noted: ConformanceReport = {
      ...report,
      checks: [
        {
          name: "compaction-frequency",
          kind: "property",
          description: "Stable.",
          status: "pass",
          durationMs: 10,
          runs: 50,
          note: "cache-stable on 97% of 120 follow-up requests",
        },
      ],
      passed: true,
      counts: { pass: 1, fail: 0, skip: 0 },
    };
    const text = formatReport(noted);
    expect(text).toMatch(/pass {2}compaction-frequency +50 runs +\d+ms {2}cache-stable on 97% of 120 follow-up requests/);
    expect(text).toContain("\ncompaction-frequency: cache-stable on 97% of 120 follow-up requests\n");
  });
});
