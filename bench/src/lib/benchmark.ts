// What every module in src/benchmarks/ exports, and the tables it hands back to the runner.
export interface BenchmarkOptions {
  /** Shorter inputs, fewer runs and tighter time limits, so that every benchmark together stays under a minute. */
  readonly quick: boolean;
  /** Every other `--flag` given on the command line (e.g. `--samples`), for the benchmarks that read one. */
  readonly flags?: readonly string[];
}

export type Cell = string | number;

export interface Table {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
  /** Lines printed under the table: what was measured and how to read it. */
  readonly notes?: readonly string[];
}

export interface Benchmark {
  readonly name: string;
  readonly description: string;
  run(options: BenchmarkOptions): Promise<Table[]> | Table[];
}

export function isBenchmark(value: unknown): value is Benchmark {
  const candidate = value as Partial<Benchmark> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.name === "string" &&
    typeof candidate.description === "string" &&
    typeof candidate.run === "function"
  );
}

/** A progress line on stderr after each job of a long benchmark, so a run is never silent for long. */
export function reportJobProgress(label: string): (job: number, total: number) => void {
  return (job, total) => process.stderr.write(`  ${label}: job ${job + 1}/${total}\n`);
}
