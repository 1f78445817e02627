// What every module in src/benchmarks/ exports, and the tables it hands back to the runner.
export interface BenchmarkOptions {
  /** Shorter inputs, fewer runs and tighter time limits, so that every benchmark together stays under a minute. */
  readonly quick: boolean;
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
