// `pnpm bench cold-start`: fresh processes, each importing a system and building its first view of a short session,
// against a bare `node -e 0`; ctxkit's ways of loading its exact counter side by side, and the AI SDK and LangChain.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import type { BenchmarkOptions, Table } from "../lib/benchmark.js";
import { median } from "../lib/measure.js";
import { formatMarkdownTable } from "../lib/table.js";
import { renderColdStartChart } from "../cold-start/cold-start-chart.js";

export const name = "cold-start";
export const description = "Fresh processes to the first exact view of a ~20-message session, against bare node and the peers";

/** The budget DESIGN.md sets: a fresh process's first exact view at most this far above a bare `node -e 0`. */
const TARGET_MS = 30;
const BARE = "node -e 0";
const HEADLINE = "ctxkit · exact, prebuilt index (default)";
// In the order the table lists them: the floor, the steps of ctxkit's load, then the peers.
const SYSTEMS = [
  BARE,
  "zod import alone",
  "ctxkit import alone",
  "ctxkit · estimate counter",
  "ctxkit · exact, js-tiktoken's ranks (the previous load)",
  "ctxkit · exact, rank table hashed at load",
  HEADLINE,
  "AI SDK pruneMessages (its recipe's estimate)",
  "LangChain trimMessages · js-tiktoken (its docs' counter)",
];

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly importMs: number;
  readonly viewMs: number;
  readonly viewLength: number;
}

const child = fileURLToPath(new URL("../cold-start/cold-start-child.mjs", import.meta.url));
const resultsFolder = new URL("../../results/", import.meta.url);

// The bare baseline: `node -e 0`, plus the one statement that reports its CPU time.
const BARE_SCRIPT =
  "const { user, system } = process.cpuUsage(); console.log(JSON.stringify({ cpuMs: (user + system) / 1000, importMs: 0, viewMs: 0, viewLength: 0 }))";

/** One fresh process, timed from spawn to exit. */
function spawnOnce(system: string): Promise<Sample> {
  const argv = system === BARE ? ["-e", BARE_SCRIPT] : [child, system];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, argv, { cwd: fileURLToPath(new URL("../../", import.meta.url)) }, (error, stdout) => {
      const wallMs = performance.now() - started;
      if (error !== null) return reject(new Error(`${system}: ${error.message}`));
      const report = JSON.parse(stdout) as Omit<Sample, "wallMs">;
      resolve({ wallMs, cpuMs: report.cpuMs, importMs: report.importMs, viewMs: report.viewMs, viewLength: report.viewLength });
    });
  });
}

function milliseconds(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(1)} ms` : "—";
}

function signed(value: number): string {
  return `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(1)} ms`;
}

export async function run({ quick }: BenchmarkOptions): Promise<Table[]> {
  const rounds = quick ? 5 : 20;
  const samples = new Map<string, Sample[]>(SYSTEMS.map((system) => [system, []]));
  // Rounds interleave the systems, so a machine that gets busier part-way slows them all alike.
  for (let round = 0; round < rounds; round++) {
    for (const system of SYSTEMS) samples.get(system)!.push(await spawnOnce(system));
    process.stderr.write(`  cold-start: round ${round + 1}/${rounds}\n`);
  }
  const medianOf = (system: string, pick: (sample: Sample) => number): number => median(samples.get(system)!.map(pick));
  const bareWall = medianOf(BARE, (sample) => sample.wallMs);
  const bareCpu = medianOf(BARE, (sample) => sample.cpuMs);
  const rows = SYSTEMS.map((system) => {
    const wall = medianOf(system, (sample) => sample.wallMs);
    const isBare = system === BARE;
    return [
      system,
      milliseconds(wall),
      isBare ? "—" : signed(wall - bareWall),
      milliseconds(medianOf(system, (sample) => sample.cpuMs)),
      isBare ? "—" : signed(medianOf(system, (sample) => sample.cpuMs) - bareCpu),
      isBare ? "—" : milliseconds(medianOf(system, (sample) => sample.importMs)),
      isBare ? "—" : milliseconds(medianOf(system, (sample) => sample.viewMs)),
      isBare ? "—" : String(samples.get(system)![0]!.viewLength),
    ];
  });
  const headlineAbove = medianOf(HEADLINE, (sample) => sample.wallMs) - bareWall;
  const table: Table = {
    title: `Cold start: median of ${rounds} fresh processes each (${cpus().length} cores)`,
    columns: [
      "system",
      "wall",
      "above node -e 0",
      "CPU",
      "CPU above node -e 0",
      "import (in process)",
      "first view (in process)",
      "view messages",
    ],
    rows,
    notes: [
      `Target: ${TARGET_MS} ms above node -e 0 for ${HEADLINE}; measured ${signed(headlineAbove)} (${headlineAbove <= TARGET_MS ? "met" : "not met"}).`,
      "wall: spawn to exit, seen by the parent. CPU: the child's own user + system time at its end (process.cpuUsage), which a busy machine inflates less.",
      "import and first view: the child's own clock, from its script's start.",
      "The AI SDK recipe counts with an estimate (JSON length ÷ 4); LangChain counts with js-tiktoken's o200k_base, built in the process.",
    ],
  };
  writeOutputs(table, samples, quick, headlineAbove);
  return [table];
}

function writeOutputs(table: Table, samples: ReadonlyMap<string, Sample[]>, quick: boolean, headlineAbove: number): void {
  const environment = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus()[0]?.model ?? "unknown",
    quick,
  };
  const header = `${environment.date} · Node ${environment.node} · ${environment.platform} · ${environment.cpu}${quick ? " · --quick" : ""}`;
  mkdirSync(resultsFolder, { recursive: true });
  writeFileSync(
    new URL("cold-start.json", resultsFolder),
    `${JSON.stringify({ ...environment, targetMs: TARGET_MS, headlineAboveBareMs: headlineAbove, samples: Object.fromEntries(samples) }, null, 2)}\n`,
  );
  writeFileSync(
    new URL("cold-start.md", resultsFolder),
    `# ctxkit cold start\n\n${header}\n\n![cold start against the peers](cold-start.svg)\n\n${formatMarkdownTable(table)}\n`,
  );
  const bareWall = median(samples.get(BARE)!.map((sample) => sample.wallMs));
  const bars = SYSTEMS.filter((system) => system !== BARE).map((system) => ({
    label: system,
    milliseconds: median(samples.get(system)!.map((sample) => sample.wallMs)) - bareWall,
    isHighlighted: system === HEADLINE,
  }));
  writeFileSync(
    new URL("cold-start.svg", resultsFolder),
    renderColdStartChart(bars, `Cold start${quick ? " (--quick)" : ""}: ${header}`, TARGET_MS),
  );
  console.log("  wrote bench/results/cold-start.md, cold-start.json and cold-start.svg");
}
