// `ctxkit tune` as a user runs it: the built binary in a child process on a small session, and its printed config put to use.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ContextManager, createContextManager, createCoordinator, loadMountPlan, MemoryMessageStore, mountPlan } from "@ctxkit/core";
import { createSummaryStrategy } from "@ctxkit/strategy-summary";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../cli.js";
import { canonicalJsonl } from "../../formats/canonical-jsonl.js";
import type { ReplayFigures } from "../replay/replay-results.js";
import { countConfigurations, defaultTuneSpace, type TuneKnobs } from "./tune-space.js";
import { SUMMARY_MODULE, type TunedConfig } from "./tuned-config.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = join(packageRoot, "bin/ctxkit.js");
const ledger = join(packageRoot, "src/commands/replay/__fixtures__/ledger-session.jsonl");
const isBuilt = ["dist/cli.js", "../core/dist/index.js", "../strategy-summary/dist/index.js", "../context-simple/dist/index.js"].every(
  (file) => existsSync(join(packageRoot, file)),
);
const skipReason = isBuilt ? "" : " (skipped: run `pnpm build` first, there is no dist to run)";
const folder = mkdtempSync(join(tmpdir(), "ctxkit-tune-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const messages = canonicalJsonl.read({ file: ledger, text: readFileSync(ledger, "utf8") }).messages;
// Small: one 34-message session at a budget it must compact under, a handful of configurations.
const BUDGET = 3000;

interface TunedPointJson {
  label: string;
  knobs: TuneKnobs;
  cost: number;
  retention: number;
  faults: number;
  config: TunedConfig;
  figures: ReplayFigures;
}
interface TuneJson {
  search: { stop: string; searched: number; dominated: number; faulty: number; maxConfigs: number };
  frontier: TunedPointJson[];
  recommended: (TunedPointJson & { mountPlan: unknown }) | null;
  configurations: TunedPointJson[];
}

function ctxkit(args: string[], cwd = folder): { code: number | null; stdout: string; stderr: string } {
  const child = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8" });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** The printed config, as the text shows it: the JSON block after its heading. */
function printedConfig(stdout: string): TunedConfig {
  const lines = stdout.split("\n");
  const start = lines.findIndex((line) => line.startsWith("createContextManager config"));
  return JSON.parse(lines.slice(start + 1, lines.indexOf("}", start) + 1).join("\n")) as TunedConfig;
}

/** A config as code uses it: as printed, with createSummaryStrategy() where it names the summary module (as the text says). */
async function managerFromConfig(config: TunedConfig): Promise<ContextManager> {
  const strategies = config.strategies.map((entry) =>
    typeof entry === "object" && "module" in entry && entry.module === SUMMARY_MODULE ? createSummaryStrategy() : entry,
  );
  return createContextManager({ store: new MemoryMessageStore(), ...config, strategies: strategies as never });
}

/** The plan as an operator deploys it: CTXKIT_MOUNT_PLAN holding its JSON, read by loadMountPlan and mounted. */
async function managerFromPlan(planJson: string): Promise<ContextManager> {
  const plan = await loadMountPlan({ env: { CTXKIT_MOUNT_PLAN: planJson }, cwd: packageRoot });
  return mountPlan(createCoordinator(), plan, { cwd: packageRoot });
}

/** Both managers see the session a message at a time and give the same view before every model call. */
async function expectSameViews(first: ContextManager, second: ContextManager): Promise<void> {
  let requests = 0;
  for (const message of messages) {
    if (message.role === "assistant") {
      const view = await first.getMessagesForRequest({ tokenBudget: BUDGET });
      expect(await second.getMessagesForRequest({ tokenBudget: BUDGET })).toEqual(view);
      requests += 1;
    }
    await first.addMessage(message);
    await second.addMessage(message);
  }
  expect(requests).toBeGreaterThan(10);
}

describe(`ctxkit tune, the built binary${skipReason}`, () => {
  const target = join(folder, "tune.json");
  let run: ReturnType<typeof ctxkit> | undefined;
  const tuned = () => {
    run ??= ctxkit(["tune", ledger, "--budget", String(BUDGET), "--min-retention", "0.8", "--max-configs", "10", "--json", target]);
    return { ...run, json: JSON.parse(readFileSync(target, "utf8")) as TuneJson };
  };

  it.skipIf(!isBuilt)("should print its help with an example", () => {
    const help = ctxkit(["tune", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Example:\n  ctxkit tune ");
    expect(help.stdout).toContain("--max-configs N      replay at most N configurations (default: 40)");
    expect(help.stdout).toContain("--time-limit T       stop searching after T: seconds, or 90s, 2m (default: 5m 00s)");
  });

  it.skipIf(!isBuilt)(
    "should print the frontier and the cheapest configuration that meets --min-retention, and write it all with --json",
    () => {
      const { code, stdout, stderr, json } = tuned();
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(json.search.searched).toBeLessThanOrEqual(10);
      expect(json.configurations).toHaveLength(json.search.searched);
      expect(json.frontier.length + json.search.dominated + json.search.faulty).toBe(json.search.searched);
      const recommended = json.recommended!;
      expect(recommended.retention).toBeGreaterThanOrEqual(0.8);
      expect(json.frontier).toContainEqual(expect.objectContaining({ label: recommended.label }));
      // Nothing searched is cheaper and meets the constraint without a fault.
      const cheaper = json.configurations.filter((point) => point.faults === 0 && point.retention >= 0.8 && point.cost < recommended.cost);
      expect(cheaper).toEqual([]);
      expect(printedConfig(stdout)).toEqual(recommended.config);
      // One frontier row per point, the recommended marked.
      expect(stdout).toContain(`*  ${recommended.cost.toFixed(2)}x`);
      // The space holds core's default thresholds wherever they are, so its size follows them.
      expect(stdout).toContain(`Searched ${json.search.searched} of ${countConfigurations(defaultTuneSpace())} configurations`);
    },
  );

  it.skipIf(!isBuilt)(
    "should print a config that createContextManager and CTXKIT_MOUNT_PLAN both build the same manager from",
    async () => {
      const { stdout, json } = tuned();
      const lines = stdout.split("\n");
      const planJson = lines[lines.findIndex((line) => line.startsWith("The same as a mount plan")) + 1]!;
      expect(JSON.parse(planJson)).toEqual(json.recommended!.mountPlan);
      await expectSameViews(await managerFromConfig(printedConfig(stdout)), await managerFromPlan(planJson));
      // And a configuration with the summary (the corner the search starts from), mounted the same way.
      const withSummary = json.configurations.find((point) => point.knobs.summary)!;
      const summaryPlan = JSON.stringify({ context: { module: "@ctxkit/context-simple", config: withSummary.config } });
      await expectSameViews(await managerFromConfig(withSummary.config), await managerFromPlan(summaryPlan));
    },
  );

  it.skipIf(!isBuilt)("should print a mount plan that ctxkit replay --config replays to the figures tune reported", () => {
    const { stdout, json } = tuned();
    const lines = stdout.split("\n");
    writeFileSync(join(folder, "tuned-plan.json"), lines[lines.findIndex((line) => line.startsWith("The same as a mount plan")) + 1]!);
    const replay = ctxkit(
      ["replay", ledger, "--config", join(folder, "tuned-plan.json"), "--budget", String(BUDGET), "--json", "-"],
      packageRoot,
    );
    expect(replay.stderr).toBe("");
    const [row] = (JSON.parse(replay.stdout) as { results: ReplayFigures[] }).results;
    expect({ cost: row!.cost, retention: row!.retention }).toEqual({
      cost: json.recommended!.cost,
      retention: json.recommended!.retention,
    });
  });

  it.skipIf(!isBuilt)("should say so, print the frontier and exit 1 when nothing meets the constraint", () => {
    const { code, stdout } = ctxkit(["tune", ledger, "--budget", String(BUDGET), "--max-cost", "0.01", "--max-configs", "4"]);
    expect(code).toBe(1);
    expect(stdout).toContain("Pareto frontier, cost against retention, at a 3,000-token budget");
    expect(stdout).toMatch(/\n +0\.\d\dx +\d+\.\d% +0\.\d/);
    expect(stdout).toContain("No configuration searched meets the constraint: the best retention at cost ≤ 0.01x.");
    expect(stdout).not.toContain("createContextManager config");
  });

  it.skipIf(!isBuilt)("should exclude and count every configuration with a refused view, and exit 1 when none is left", () => {
    // No view of this session fits 400 tokens whatever the configuration: every one refuses some.
    const { code, stdout } = ctxkit(["tune", ledger, "--budget", "400", "--max-configs", "4", "--json", "-"]);
    expect(code).toBe(1);
    const json = JSON.parse(stdout) as TuneJson;
    expect(json.configurations.length).toBeGreaterThan(0);
    expect(json.configurations.every((point) => point.figures.refusals > 0 && point.faults >= point.figures.refusals)).toBe(true);
    expect(json.search).toMatchObject({ faulty: json.configurations.length, dominated: 0 });
    expect(json.frontier).toEqual([]);
    expect(json.recommended).toBeNull();
  });

  it.skipIf(!isBuilt)("should exit 2 on a bad bound, naming the option", () => {
    const { code, stdout, stderr } = ctxkit(["tune", ledger, "--budget", String(BUDGET), "--time-limit", "soon"]);
    expect(code).toBe(2);
    expect(stderr).toContain('ctxkit tune: --time-limit: "soon" is not a duration');
    expect(stderr).toContain("Run ctxkit tune --help for usage.");
    expect(stdout).toBe("");
  });
});

describe("ctxkit tune in process", () => {
  function stream(isTTY: boolean) {
    const chunks: string[] = [];
    return { chunks, text: () => chunks.join(""), write: (chunk: string) => void chunks.push(chunk), isTTY };
  }

  it("should be listed by ctxkit --help", async () => {
    const stdout = stream(false);
    expect(await main(["--help"], { stdout, stderr: stream(false), env: {}, cwd: folder })).toBe(0);
    expect(stdout.text()).toMatch(/\n {2}tune FILES… +search configurations/);
  });

  it("should show progress on a terminal's stderr (configuration, file, messages, elapsed)", async () => {
    const stdout = stream(true);
    const stderr = stream(true);
    const code = await main(["tune", ledger, "--budget", String(BUDGET), "--max-configs", "2"], { stdout, stderr, env: {}, cwd: folder });
    expect(code).toBe(0);
    expect(stderr.chunks[0]).toMatch(/^\r\u001b\[2Ktune: configuration 1\/2 · file 1\/1 · \d+\/34 messages · \d+s$/);
    expect(stdout.text().startsWith("\u001b[1mPareto frontier")).toBe(true);
  });

  it("should say in the text where the time limit stopped it", async () => {
    const stdout = stream(false);
    await main(["tune", ledger, "--budget", String(BUDGET), "--time-limit", "1ms"], {
      stdout,
      stderr: stream(false),
      env: {},
      cwd: folder,
    });
    expect(stdout.text()).toMatch(/ configurations in \d+s \(stopped at --time-limit 1ms\)\./);
  });

  it("should stop at --time-limit and say so, leaving out the configuration it cut short", async () => {
    const stdout = stream(false);
    const code = await main(["tune", ledger, "--budget", String(BUDGET), "--time-limit", "1ms", "--json", "-"], {
      stdout,
      stderr: stream(false),
      env: {},
      cwd: folder,
    });
    const json = JSON.parse(stdout.text()) as TuneJson;
    expect(json.search.stop).toBe("time-limit");
    expect(json.search.searched).toBeLessThan(json.search.maxConfigs);
    expect(json.configurations.every((point) => point.figures.requests === 16)).toBe(true);
    expect(code).toBe(json.recommended === null ? 1 : 0);
  });

  it("should stop on Ctrl-C, write nothing and exit 130", async () => {
    const controller = new AbortController();
    const target = join(folder, "interrupted.json");
    const stderr = { chunks: [] as string[], isTTY: true, write: (chunk: string) => void (stderr.chunks.push(chunk), controller.abort()) };
    const stdout = stream(false);
    const code = await main(["tune", ledger, "--budget", String(BUDGET), "--json", target], {
      stdout,
      stderr,
      env: {},
      cwd: folder,
      signal: controller.signal,
    });
    expect(code).toBe(130);
    expect(stderr.chunks.join("")).toContain("ctxkit tune: interrupted; nothing was written");
    expect(existsSync(target)).toBe(false);
  });
});
