import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "./cli.js";
import type { ConformanceReport } from "./runner/report.js";

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fixtures = path.join(packageRoot, "test", "__fixtures__");
const contextSimpleSource = path.resolve(packageRoot, "..", "context-simple", "src", "index.ts");

function createOutput(isTTY = false) {
  const chunks: string[] = [];
  return { chunks, text: () => chunks.join(""), write: (chunk: string) => chunks.push(chunk), isTTY };
}

async function run(argv: string[]) {
  const stdout = createOutput();
  const stderr = createOutput();
  const code = await main(argv, { stdout, stderr, cwd: packageRoot });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const contextPersistentSource = path.resolve(packageRoot, "..", "context-persistent", "src", "index.ts");

describe("ctxkit-conformance main()", () => {
  it("should run restart on a persistent module given --restart, each instance on the kit's session id", async () => {
    const storagePath = mkdtempSync(path.join(tmpdir(), "ctxkit-cli-restart-"));
    try {
      const config = JSON.stringify({ storagePath });
      const { code, stdout } = await run([
        contextPersistentSource,
        "--restart",
        "--only",
        "restart",
        "--runs",
        "3",
        "--seed",
        "3",
        "--config",
        config,
      ]);
      expect(stdout).toMatch(/pass {2}restart +\d+ runs/);
      expect(code).toBe(0);
      // Without the flag, the same run skips restart, as before.
      const skipped = await run([contextPersistentSource, "--only", "restart", "--runs", "3", "--config", config]);
      expect(skipped.stdout).toMatch(/skip {2}restart/);
    } finally {
      rmSync(storagePath, { recursive: true, force: true });
    }
  });

  it("should pass context-simple, print a line per check with runs and time, and exit 0", async () => {
    const { code, stdout } = await run([contextSimpleSource, "--runs", "5", "--seed", "3"]);
    expect(stdout).toContain("ctxkit conformance: context-simple (module), seed 3, 5 runs per property");
    expect(stdout).toMatch(/pass {2}pairing +5 runs +(\d+ms|\d+\.\ds)/);
    expect(stdout).toContain("capabilities: compact yes, recoverOverflow yes, usage yes, events yes");
    // The count grows with the kit; what matters is that nothing fails.
    expect(stdout).toMatch(/PASSED: context-simple: \d+ passed, 0 failed/);
    expect(code).toBe(0);
  });

  it("should print a broken module's counterexample and replay command, and exit 1", async () => {
    const modulePath = path.join(fixtures, "drops-system-message.ts");
    const { code, stdout } = await run([modulePath, "--runs", "50", "--seed", "1", "--only", "preservation,budget"]);
    expect(stdout).toMatch(/FAIL {2}preservation/);
    expect(stdout).toMatch(/pass {2}budget/);
    expect(stdout).toContain('"role": "system"');
    expect(stdout).toMatch(
      new RegExp(`Replay: ctxkit-conformance ${modulePath.replace(/[.\\/]/g, "\\$&")} --only preservation --seed 1 --path [\\d:]+`),
    );
    expect(code).toBe(1);
  });

  it("should replay one counterexample from its seed and path", async () => {
    const modulePath = path.join(fixtures, "drops-system-message.ts");
    const first = await run([modulePath, "--runs", "50", "--seed", "1", "--only", "preservation", "--json"]);
    const { counterexample } = (JSON.parse(first.stdout) as ConformanceReport).checks[0]!;
    const replay = await run([modulePath, "--seed", "1", "--only", "preservation", "--path", counterexample!.path, "--json"]);
    const replayed = (JSON.parse(replay.stdout) as ConformanceReport).checks[0]!;
    expect(replayed.status).toBe("fail");
    expect(replayed.counterexample?.input).toEqual(counterexample?.input);
  });

  it("should create strategies named by module in --config, fresh for each mount", async () => {
    const strategy = path.join(fixtures, "noop-strategy.mjs");
    const config = JSON.stringify({ strategies: [{ module: strategy, config: {} }, "truncate"] });
    const before = (globalThis as { noopStrategiesCreated?: number }).noopStrategiesCreated ?? 0;
    const { code } = await run([
      contextSimpleSource,
      "--runs",
      "3",
      "--seed",
      "5",
      "--only",
      "config-schema,pairing,budget",
      "--config",
      config,
    ]);
    expect(code).toBe(0);
    expect(((globalThis as { noopStrategiesCreated?: number }).noopStrategiesCreated ?? 0) - before).toBeGreaterThanOrEqual(6);
  });

  it("should name the missing config of a module that cannot mount without it, with a command to paste", async () => {
    const modulePath = path.join(fixtures, "needs-storage-path.mjs");
    const { code, stdout } = await run([modulePath, "--runs", "2"]);
    expect(code).toBe(1);
    expect(stdout).toContain("needs-storage-path cannot mount without config: storagePath (required: the folder for the journals).");
    expect(stdout).toContain(`ctxkit-conformance ${modulePath} --config '{"storagePath":"./ctxkit-conformance-data"}'`);
  });

  it("should not blame the config when every required key is given", async () => {
    const { stdout, stderr } = await run([path.join(fixtures, "needs-storage-path.mjs"), "--runs", "2", "--config", '{"storagePath":"x"}']);
    expect(`${stdout}${stderr}`).not.toContain("cannot mount without config");
  });

  it("should write a parseable JSON report with --json", async () => {
    const { code, stdout } = await run([path.join(fixtures, "mounts-nothing.mjs"), "--json", "--runs", "2"]);
    const report = JSON.parse(stdout) as ConformanceReport;
    expect(report).toMatchObject({ subject: "mounts-nothing", passed: false });
    expect(report.checks.find((check) => check.name === "mount-registers-manager")?.status).toBe("fail");
    expect(code).toBe(1);
  });

  it("should report a module it cannot load as a failed load check", async () => {
    const { code, stdout } = await run(["./no-such-module.js"]);
    expect(stdout).toMatch(/FAIL {2}load/);
    expect(code).toBe(1);
  });

  it("should check several modules in turn and fail if any fails", async () => {
    // One property at enough runs to reach a compaction on any seed (two runs of every property may exercise
    // nothing, which fails it), beside the meta checks that fail a module mounting nothing.
    const { code, stdout } = await run([
      contextSimpleSource,
      path.join(fixtures, "mounts-nothing.mjs"),
      "--only",
      "meta,pairing",
      "--runs",
      "12",
      "--json",
    ]);
    const reports = JSON.parse(stdout) as ConformanceReport[];
    expect(reports.map((report) => [report.subject, report.passed])).toEqual([
      ["context-simple", true],
      ["mounts-nothing", false],
    ]);
    expect(code).toBe(1);
  });

  it("should show progress on a terminal only", async () => {
    const stdout = createOutput();
    const stderr = createOutput(true);
    await main([contextSimpleSource, "--runs", "3", "--only", "pairing"], { stdout, stderr, cwd: packageRoot });
    expect(stderr.text()).toMatch(/pairing/);
    expect(stderr.text()).toContain("\r\u001b[K");
  });

  it("should exit 2 on an unknown check name rather than pass vacuously", async () => {
    const { code, stderr } = await run([contextSimpleSource, "--only", "pairing,pairng"]);
    expect(stderr).toMatch(/options\.only: unknown check\(s\) pairng; known checks: meta, .*pairing/);
    expect(code).toBe(2);
  });

  describe("usage errors", () => {
    it.each([
      [[], /name at least one module/],
      [["x", "--bogus"], /unknown option --bogus/],
      [["x", "--runs", "0"], /--runs needs an integer of at least 1/],
      [["x", "--path", "1:2"], /--path replays one property/],
      [["x", "--config", "{oops"], /--config needs JSON/],
    ])("should exit 2 with the usage for %j", async (argv, message) => {
      const { code, stderr } = await run(argv);
      expect(stderr).toMatch(message);
      expect(stderr).toContain("Usage: ctxkit-conformance <module…> [options]");
      expect(code).toBe(2);
    });
  });
});

// The built CLI as a real child process, exactly as `pnpm start` runs it.
const builtCli = path.join(packageRoot, "dist", "cli.js");
const isBuilt = [
  builtCli,
  path.resolve(packageRoot, "../core/dist/index.js"),
  path.resolve(packageRoot, "../context-simple/dist/index.js"),
].every((file) => existsSync(file));
const skipReason = isBuilt ? "" : " (skipped: run `pnpm build` first, there is no dist to run)";

describe(`the built ctxkit-conformance binary${skipReason}`, () => {
  it.skipIf(!isBuilt)("should exit 0 on the context-simple folder and print a JSON report", () => {
    // A fixed seed: five runs of a property may, on some seeds, exercise nothing it checks, which fails it.
    const child = spawnSync(process.execPath, [builtCli, "../context-simple", "--runs", "5", "--seed", "3", "--json"], {
      cwd: packageRoot,
      encoding: "utf8",
    });
    expect(child.stderr).toBe("");
    expect((JSON.parse(child.stdout) as ConformanceReport).passed).toBe(true);
    expect(child.status).toBe(0);
  });

  it.skipIf(!isBuilt)("should exit 1 on a module that mounts nothing", () => {
    const child = spawnSync(process.execPath, [builtCli, "test/__fixtures__/mounts-nothing.mjs", "--runs", "2"], {
      cwd: packageRoot,
      encoding: "utf8",
    });
    expect(child.stdout).toMatch(/FAIL {2}mount-registers-manager/);
    expect(child.status).toBe(1);
  });
});
