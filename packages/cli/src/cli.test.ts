// The built `ctxkit` binary as a user runs it: a real child process on the readers' fixtures, every format.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { ReplayFigures } from "./commands/replay/replay-results.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(packageRoot, "bin/ctxkit.js");
const formats = join(packageRoot, "src/formats/__fixtures__");
const ledger = join(packageRoot, "src/commands/replay/__fixtures__/ledger-session.jsonl");
const isBuilt = ["dist/cli.js", "../core/dist/index.js", "../strategy-summary/dist/index.js", "../context-simple/dist/index.js"].every(
  (file) => existsSync(join(packageRoot, file)),
);
const skipReason = isBuilt ? "" : " (skipped: run `pnpm build` first, there is no dist to run)";
const folder = mkdtempSync(join(tmpdir(), "ctxkit-cli-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface JsonReport {
  sessions: { file: string; format: string; messages: number; skipped: Record<string, number> }[];
  results: ReplayFigures[];
  totals: ReplayFigures[];
  failures: { file: string; line: number; message: string }[];
}

function ctxkit(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  // NO_COLOR unset on purpose: the streams are pipes, so there must be no colour anyway.
  const env = { ...process.env };
  delete env["NO_COLOR"];
  const child = spawnSync(process.execPath, [bin, ...args], { cwd: folder, encoding: "utf8", env });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

const fixtures = readdirSync(formats).map((file) => join(formats, file));

describe(`the built ctxkit binary${skipReason}`, () => {
  it.skipIf(!isBuilt)("should print its help with an example, for the command and for replay", () => {
    const top = ctxkit("--help");
    expect(top.code).toBe(0);
    expect(top.stdout).toContain("ctxkit replay session.jsonl");
    const replay = ctxkit("replay", "--help");
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain("Example:\n  ctxkit replay ");
    expect(replay.stdout).toContain("--compare A,B,…");
  });

  it.skipIf(!isBuilt)("should replay a file of every format, print an aligned table and the sessions, and exit 0", () => {
    const { code, stdout, stderr } = ctxkit("replay", ...fixtures, "--budget", "2000");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    const header = lines[0]!;
    expect(header).toMatch(
      /^configuration +budget +session +calls +cost +cache read +retention +refusals +pair faults +over budget +mean view +compactions$/,
    );
    const rows = lines.slice(2, lines.indexOf(""));
    expect(rows).toHaveLength(fixtures.length + 1);
    // Aligned: every row ends where the header does, the last column right-aligned under its title.
    for (const row of rows) expect(row.length).toBe(header.length);
    expect(rows.at(-1)).toMatch(/^default +2,000 +all sessions /);
    for (const format of [
      "jsonl",
      "openai-chat",
      "openai-responses",
      "anthropic",
      "ai-sdk",
      "claude-code",
      "codex",
      "pi",
      "gemini",
      "openhands",
    ])
      expect(stdout).toContain(`(${format}): `);
    expect(stdout).toContain("pi-session.jsonl (pi): 7 messages; left out: 1 session entry");
    expect(stdout).not.toContain("\u001b[");
  });

  it.skipIf(!isBuilt)("should write the same figures as JSON, to a file beside the table or instead of it with -", () => {
    const target = join(folder, "replay.json");
    const table = ctxkit("replay", ledger, "--compare", "default,truncate", "--budget", "3000,6000", "--json", target);
    expect(table.code).toBe(0);
    const written = JSON.parse(readFileSync(target, "utf8")) as JsonReport;
    const printed = JSON.parse(
      ctxkit("replay", ledger, "--compare", "default,truncate", "--budget", "3000,6000", "--json", "-").stdout,
    ) as JsonReport;
    expect(printed.results).toEqual(written.results);
    expect(written.results).toHaveLength(4);
    for (const row of written.results) {
      const line = table.stdout
        .split("\n")
        .find((entry) => entry.startsWith(`${row.configuration} `) && entry.includes(row.budget.toLocaleString("en")));
      expect(line, `${row.configuration} at ${row.budget}`).toContain(`${row.cost.toFixed(2)}x`);
      expect(line).toContain(`${(row.retention * 100).toFixed(1)}%`);
      expect(row.cost).toBeCloseTo(row.billedTokens / row.fullHistoryBilledTokens, 12);
    }
    expect(written.results.find((row) => row.budget === 3000)!.compactions).toBeGreaterThan(0);
    expect(readdirSync(folder).filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });

  it.skipIf(!isBuilt)("should write one self-contained page with --html: the chart, the table and the data, nothing fetched", () => {
    // A file name is shown in the table and held in the data: markup in it must stay text.
    const hostile = join(folder, "<!--<script>alert(1)<script>.jsonl");
    writeFileSync(
      hostile,
      `${JSON.stringify({ role: "user", content: "Open src/page_view.ts" })}\n${JSON.stringify({ role: "assistant", content: "src/page_view.ts" })}\n`,
    );
    const page = join(folder, "replay.html");
    const args = ["replay", ledger, hostile, "--compare", "default,truncate", "--budget", "3000"];
    expect(ctxkit(...args, "--html", page).code).toBe(0);
    const html = readFileSync(page, "utf8");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('<svg role="img" aria-labelledby="chart-title"');
    expect(html.match(/<tr><th scope="row">(default|truncate)<\/th>/g)).toHaveLength(6);
    // Nothing outside the file: no script or style source, no link, no CSS import or url().
    expect(html).not.toMatch(/\s(src|href)=|@import|url\(/);
    expect(html).not.toContain("<script>alert");
    const data = /<script type="application\/json" id="replay-data">\n([\s\S]*?)\n<\/script>/.exec(html)![1]!;
    expect(JSON.parse(data)).toEqual(JSON.parse(ctxkit(...args, "--json", "-").stdout));
  });

  it.skipIf(!isBuilt || process.platform === "win32")("should stop on Ctrl-C (SIGINT), write nothing and exit 130", async () => {
    // The session comes through a FIFO: once this test can open it for writing, the command is reading it, so
    // its Ctrl-C handler is in place, and the interrupt lands before any replay, whatever the machine's speed.
    const fifo = join(folder, "session.fifo");
    execFileSync("mkfifo", [fifo]);
    const target = join(folder, "interrupted-by-signal.json");
    const child = spawn(process.execPath, [bin, "replay", fifo, "--json", target], { cwd: folder });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const writer = openSync(fifo, "w");
    child.kill("SIGINT");
    writeSync(writer, readFileSync(ledger));
    closeSync(writer);
    expect(await exited).toBe(130);
    expect(stderr).toContain("ctxkit replay: interrupted; nothing was written");
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(folder).filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });

  it.skipIf(!isBuilt)("should report a file it cannot read by its line, replay the others, and exit 1", () => {
    const broken = join(folder, "broken.jsonl");
    writeFileSync(broken, '{"role": "user", "content": "hi"}\n{"role": "assistant", "content": "cut\n');
    const { code, stdout, stderr } = ctxkit("replay", broken, join(formats, "canonical.jsonl"), "--json", "-");
    expect(code).toBe(1);
    expect(stderr).toContain(`ctxkit replay: ${broken}:2: not valid JSON`);
    expect(stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.sessions.map((session) => session.format)).toEqual(["jsonl"]);
    expect(report.failures).toEqual([expect.objectContaining({ file: broken, line: 2 })]);
  });

  it.skipIf(!isBuilt)("should show a stack trace only with --debug", () => {
    const missing = join(folder, "missing.jsonl");
    expect(ctxkit("replay", missing).stderr).not.toMatch(/\n\s+at /);
    const debug = ctxkit("replay", missing, "--debug");
    expect(debug.code).toBe(1);
    expect(debug.stderr).toContain("missing.jsonl: cannot be read (ENOENT)");
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it.skipIf(!isBuilt).each([
    [["--budget", "lots"], '--budget: "lots" is not a token count'],
    [["--colour"], "Unknown option '--colour'"],
    [["--preset", "smallest"], '--preset: "smallest" is not a preset'],
    [["--price", "gemini"], '--price: "gemini" is not a price model'],
    [["--cache-read=-1"], '--cache-read: "-1" is not a price multiplier'],
    [["--format", "yaml"], '--format: "yaml" is not a format'],
    [["--config", "absent.json"], "--config: absent.json cannot be read (ENOENT)"],
    [["--html", "-"], "--html: give a file to write"],
  ])("should exit 2 on %j, naming the option and what to give", (args, message) => {
    const { code, stdout, stderr } = ctxkit("replay", join(formats, "canonical.jsonl"), ...args);
    expect(code).toBe(2);
    expect(stderr).toContain(`ctxkit replay: ${message}`);
    expect(stderr).toContain("Run ctxkit replay --help for usage.");
    expect(stdout).toBe("");
  });

  it.skipIf(!isBuilt)("should exit 2 on an unknown command and on replay without files", () => {
    expect(ctxkit("inspecct")).toMatchObject({ code: 2, stderr: expect.stringContaining('"inspecct" is not a command') });
    expect(ctxkit("replay")).toMatchObject({ code: 2, stderr: expect.stringContaining("name at least one session file") });
  });

  it.skipIf(!isBuilt)("should compare a preset, a config file and a mount plan side by side", () => {
    // The fixture's tool results take about half of the 3,000-token budget each, so each new one takes the view past
    // the budget, and the compaction leaves the pipeline's floor (old results cleared and stubbed, the newest kept
    // whole) whatever the threshold and target: a lower threshold or target changes no view. A tighter budget does:
    // maxTokens caps the replay's, so every view of this config stays under 2,000 tokens, where the preset's average
    // over 2,200.
    writeFileSync(join(folder, "tight.json"), JSON.stringify({ maxTokens: 2_000 }));
    writeFileSync(
      join(folder, "plan.json"),
      JSON.stringify({ context: { module: "@ctxkit/context-simple", config: { preset: "truncate" } } }),
    );
    const child = spawnSync(
      process.execPath,
      [
        bin,
        "replay",
        ledger,
        "--compare",
        `truncate,${join(folder, "tight.json")},${join(folder, "plan.json")}`,
        "--budget",
        "3000",
        "--json",
        "-",
      ],
      // A plan's modules resolve from the working directory, as in a user's project.
      { cwd: packageRoot, encoding: "utf8" },
    );
    expect(child.stderr).toBe("");
    const report = JSON.parse(child.stdout) as JsonReport & { configurations: { label: string; kind: string }[] };
    expect(report.configurations.map((configuration) => configuration.kind)).toEqual(["preset", "config", "mount plan"]);
    const [preset, tight, plan] = report.results;
    // The plan mounts the truncate preset through context-simple: the same views as the preset itself.
    expect(plan).toEqual({ ...preset, configuration: join(folder, "plan.json") });
    expect(tight!.meanViewTokens).toBeLessThan(preset!.meanViewTokens);
  });

  it.skipIf(!isBuilt)("should exit 2 naming the file when a config is refused by the manager", () => {
    writeFileSync(join(folder, "bad.json"), JSON.stringify({ compactThreshold: 2 }));
    const { code, stderr } = ctxkit("replay", ledger, "--config", "bad.json");
    expect(code).toBe(2);
    expect(stderr).toContain("ctxkit replay: --config: bad.json: Invalid config");
    expect(stderr).toContain("compactThreshold");
  });

  it.skipIf(!isBuilt)("should price with --price none and the --cache-read and --cache-write overrides", () => {
    const figures = (...args: string[]) =>
      (JSON.parse(ctxkit("replay", ledger, "--budget", "6000", "--json", "-", ...args).stdout) as JsonReport).results[0]!;
    const none = figures("--price", "none");
    const flat = figures("--price", "anthropic", "--cache-read", "1", "--cache-write", "1");
    expect(flat.cost).toBe(none.cost);
    // Without a cache discount the cost is the share of tokens sent: below 1 only by what compaction left out.
    expect(none.cost).toBeLessThan(1);
    expect(none.cost).toBeCloseTo(none.billedTokens / none.fullHistoryBilledTokens, 12);
    const openai = figures("--price", "openai");
    expect(openai.cost).not.toBe(none.cost);
    expect(figures("--price", "anthropic", "--cache-read", "0.1", "--cache-write", "1").cost).toBe(openai.cost);
  });
});
