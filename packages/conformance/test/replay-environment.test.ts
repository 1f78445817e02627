// The replay path end to end: a failure's printed environment variables rerun exactly that case in vitest.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runConformance } from "../src/index.js";
import { compactsSilently } from "./__fixtures__/broken-modules.js";

const vitest = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));
const config = fileURLToPath(new URL("./__fixtures__/replay/vitest.config.ts", import.meta.url));

/** Runs the fixture test file in its own vitest, with the replay variables a failure message prints. */
function runFixture(environment: Record<string, string>, file = "events"): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [vitest, "run", "--config", config, file], {
    env: { ...process.env, ...environment, NO_COLOR: "1", FORCE_COLOR: "0" },
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("CTXKIT_CONFORMANCE_ONLY, _SEED and _PATH", () => {
  it("should run one property and pass a passing module, with no empty suite left behind (regression)", () => {
    const { status, output } = runFixture({ REPLAY_SUBJECT: "simple", CTXKIT_CONFORMANCE_ONLY: "events", CTXKIT_CONFORMANCE_RUNS: "5" });
    expect(output).not.toMatch(/No test found/);
    expect(output).toMatch(/Tests\s+1 passed \(1\)/);
    expect(status).toBe(0);
  }, 120_000);

  it("should replay a failure from the variables its message prints, failing the same way", async () => {
    const report = await runConformance(compactsSilently, { only: ["events"], runs: 100, seed: 1 });
    const failure = report.checks.find((check) => check.name === "events")!;
    const { seed, path } = failure.counterexample!;
    const { status, output } = runFixture({
      REPLAY_SUBJECT: "broken",
      CTXKIT_CONFORMANCE_ONLY: "events",
      CTXKIT_CONFORMANCE_SEED: String(seed),
      CTXKIT_CONFORMANCE_PATH: path,
    });
    expect(status).toBe(1);
    expect(output).toContain(failure.reason!.split("\n")[0]!);
    expect(output).toContain(`Replay: CTXKIT_CONFORMANCE_ONLY=events CTXKIT_CONFORMANCE_SEED=${seed}`);
    expect(output).toMatch(/Tests\s+1 failed \(1\)/);
  }, 120_000);
});

describe("describeContextManager's timeoutMs", () => {
  it("should fail the property whose run hangs, naming the call, and fail the ones after it as not run (regression)", () => {
    const { status, output } = runFixture({}, "hangs");
    expect(output).toMatch(/a run of pairing did not finish within 300 ms: getMessagesForRequest\(\) never returned/);
    expect(output).toMatch(/budget: not run: pairing did not finish/);
    expect(output).toMatch(/Tests\s+2 failed \(2\)/);
    expect(status).toBe(1);
  }, 120_000);
});

describe("describeMessageStore's hooks", () => {
  it("should pass a healthy store and fail each broken one: silent repair, in-place replace, swallowed conflict, hanging close", () => {
    const result = spawnSync(process.execPath, [vitest, "run", "--config", config, "--reporter=json", "stores"], { encoding: "utf8" });
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf("{"))) as {
      testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }>;
    };
    const tests = report.testResults.flatMap((file) => file.assertionResults);
    const failed = tests.filter((test) => test.status === "failed").map((test) => test.fullName);
    expect(tests.filter((test) => test.fullName.startsWith("store-none")).length).toBeGreaterThan(8);
    expect(tests.filter((test) => test.fullName.startsWith("store-none") && test.status === "skipped")).toEqual([]);
    expect(failed.sort()).toEqual([
      expect.stringMatching(/^store-hangs-on-close .*close\(\) within a bound when the network froze/),
      expect.stringMatching(/^store-hangs-on-close .*write on a frozen network/),
      expect.stringMatching(/^store-repairs-corruption .*corrupt session with a typed error/),
      expect.stringMatching(/^store-replaces-in-place .*killed mid-way/),
      expect.stringMatching(/^store-swallows-conflict .*another writer changed/),
    ]);
  }, 120_000);
});
