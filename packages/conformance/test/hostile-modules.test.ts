// The real command, in a real child process, against modules that hang, throw or hold on: each run must end
// with a non-zero exit and a line that names the cause, by itself, within its --timeout.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const builtCli = path.join(packageRoot, "dist", "cli.js");
const hostile = path.join("test", "__fixtures__", "hostile");
const isBuilt = [builtCli, path.resolve(packageRoot, "../core/dist/index.js")].every((file) => existsSync(file));
const skipReason = isBuilt ? "" : " (skipped: run `pnpm --filter @ctxkit/conformance build` first, there is no dist to run)";

/** Only a safety net, so a regression fails instead of hanging the test run: every case ends in seconds. */
const KILL_AFTER_MS = 60_000;
/** Short for the cases that hang; healthy steps (a mount, a structural check) take milliseconds. */
const HANG_TIMEOUT = "1500";

interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

function runCli(fixture: string, ...options: string[]): Promise<ChildResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [builtCli, path.join(hostile, fixture), "--no-color", ...options],
      { cwd: packageRoot, timeout: KILL_AFTER_MS, killSignal: "SIGKILL", encoding: "utf8" },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ code, signal: error?.signal ?? null, output: `${stdout}${stderr}` });
      },
    );
  });
}

const cases: ReadonlyArray<{ fixture: string; why: string; options: string[]; lines: RegExp[] }> = [
  {
    fixture: "throws-on-import.mjs",
    why: "throws on import",
    options: ["--timeout", HANG_TIMEOUT],
    lines: [/^Incomplete: the module did not load: .*no database configured; \d+ check\(s\) were not run\.$/m, /^FAILED: /m],
  },
  {
    fixture: "never-settles-at-top-level.mjs",
    why: "never settles at its top level",
    options: ["--timeout", HANG_TIMEOUT],
    lines: [/^Incomplete: the module did not load: importing the module did not finish within 1500 ms/m, /^FAILED: /m],
  },
  {
    fixture: "never-mounts.mjs",
    why: "never mounts",
    options: ["--timeout", HANG_TIMEOUT],
    lines: [
      /^Incomplete: the mount-registers-manager check did not finish within 1500 ms: mount\(\) never returned/m,
      /skip {2}pairing +\(not run: mount-registers-manager did not finish\)/,
      /^FAILED: never-mounts: /m,
    ],
  },
  {
    fixture: "mount-keeps-timer.mjs",
    why: "keeps a timer alive in a mount() that never settles",
    options: ["--timeout", HANG_TIMEOUT],
    lines: [/^Incomplete: the mount-registers-manager check did not finish within 1500 ms: mount\(\) never returned/m, /^FAILED: /m],
  },
  {
    fixture: "cleanup-never-settles.mjs",
    why: "never finishes its cleanup",
    options: ["--timeout", HANG_TIMEOUT],
    lines: [/^Incomplete: the mount-registers-manager check did not finish within 1500 ms: cleanup\(\) never returned/m, /^FAILED: /m],
  },
  {
    fixture: "requests-hang.mjs",
    why: "never answers a request",
    options: ["--timeout", HANG_TIMEOUT, "--runs", "5", "--seed", "1"],
    lines: [
      /FAIL {2}pairing/,
      /^Incomplete: a run of pairing did not finish within 1500 ms: getMessagesForRequest\(\) never returned/m,
      /skip {2}budget +\(not run: pairing did not finish\)/,
      /^FAILED: requests-hang: /m,
    ],
  },
  {
    fixture: "keeps-handle-open.mjs",
    why: "keeps a server open after its cleanup",
    // Generous: this module is healthy, and its report must be complete before the open handle is found.
    options: ["--timeout", "30000", "--runs", "5", "--seed", "3", "--only", "meta,mount-registers-manager,cleanup,pairing"],
    lines: [/^PASSED: keeps-handle-open: /m, /the report is complete, but .* the module still holds 1 TCPServerWrap open/],
  },
  {
    fixture: "wrong-shape.mjs",
    why: "exports the wrong shape",
    options: ["--timeout", HANG_TIMEOUT],
    lines: [/^Incomplete: the module did not load: .*meta\.type \(must be "context" here.*mount \(must be a function/m, /^FAILED: /m],
  },
];

describe(`ctxkit-conformance against hostile modules${skipReason}`, () => {
  it.skipIf(!isBuilt).each(cases)(
    "should exit 1 by itself, naming the cause, on a module that $why (regression)",
    async ({ fixture, options, lines }) => {
      const { code, signal, output } = await runCli(fixture, ...options);
      expect(signal, `killed by the safety net; output:\n${output}`).toBeNull();
      for (const line of lines) expect(output).toMatch(line);
      expect(code).toBe(1);
    },
    KILL_AFTER_MS + 10_000,
  );
});
