// `pnpm bench [name …] [--quick]`: runs the benchmarks in src/benchmarks/, prints their tables, writes results/.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { type Benchmark, type Table, isBenchmark } from "./lib/benchmark.js";
import { formatDuration } from "./lib/measure.js";
import { formatMarkdownTable, formatTable } from "./lib/table.js";

interface BenchmarkResult {
  readonly name: string;
  readonly description: string;
  readonly durationMs: number;
  readonly tables: readonly Table[];
}

const benchmarksFolder = new URL("./benchmarks/", import.meta.url);
const resultsFolder = new URL("../results/", import.meta.url);

async function loadBenchmarks(): Promise<Benchmark[]> {
  const files = readdirSync(benchmarksFolder)
    .filter((file) => file.endsWith(".ts"))
    .sort();
  const benchmarks: Benchmark[] = [];
  for (const file of files) {
    const module: unknown = await import(new URL(file, benchmarksFolder).href);
    if (!isBenchmark(module)) throw new Error(`src/benchmarks/${file} must export name, description and run(options).`);
    benchmarks.push(module);
  }
  return benchmarks;
}

function writeResults(results: readonly BenchmarkResult[], quick: boolean): void {
  const environment = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus()[0]?.model ?? "unknown",
    quick,
  };
  mkdirSync(resultsFolder, { recursive: true });
  writeFileSync(new URL("latest.json", resultsFolder), `${JSON.stringify({ ...environment, results }, null, 2)}\n`);
  const markdown = [
    "# ctxkit benchmarks",
    "",
    `${environment.date} · Node ${environment.node} · ${environment.platform} · ${environment.cpu}${quick ? " · --quick" : ""}`,
    ...results.flatMap((result) => [
      "",
      `## ${result.name}`,
      "",
      `${result.description} (${formatDuration(result.durationMs)})`,
      ...result.tables.flatMap((table) => ["", formatMarkdownTable(table)]),
    ]),
  ];
  writeFileSync(new URL("latest.md", resultsFolder), `${markdown.join("\n")}\n`);
}

async function main(): Promise<void> {
  const argumentsGiven = process.argv.slice(2);
  const quick = argumentsGiven.includes("--quick");
  const names = argumentsGiven.filter((argument) => !argument.startsWith("--"));
  const available = await loadBenchmarks();
  const unknown = names.filter((wanted) => !available.some((benchmark) => benchmark.name === wanted));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark(s): ${unknown.join(", ")}. Available: ${available.map((benchmark) => benchmark.name).join(", ")}.`);
    process.exitCode = 1;
    return;
  }
  const selected = names.length === 0 ? available : available.filter((benchmark) => names.includes(benchmark.name));
  const results: BenchmarkResult[] = [];
  for (const benchmark of selected) {
    console.log(`\n▶ ${benchmark.name}: ${benchmark.description}${quick ? " (--quick)" : ""}`);
    const started = performance.now();
    const tables = await benchmark.run({
      quick,
      flags: argumentsGiven.filter((argument) => argument.startsWith("--") && argument !== "--quick"),
    });
    const durationMs = performance.now() - started;
    for (const table of tables) console.log(`\n${formatTable(table)}`);
    console.log(`\n  ${benchmark.name} took ${formatDuration(durationMs)}`);
    results.push({ name: benchmark.name, description: benchmark.description, durationMs, tables });
  }
  writeResults(results, quick);
  console.log(`\nWrote bench/results/latest.json and latest.md`);
}

await main();
