// Timing helpers: the median of several timed runs after a warm-up, and a readable duration.
export interface Measurement {
  readonly medianMs: number;
  readonly samplesMs: readonly number[];
}

export interface MeasureOptions {
  /** Untimed runs first, so the JIT and caches settle. Default 1. */
  readonly warmup?: number;
  /** Timed runs; the median is reported. Default 5. */
  readonly runs?: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function measure(task: () => unknown, options: MeasureOptions = {}): Measurement {
  const { warmup = 1, runs = 5 } = options;
  for (let run = 0; run < warmup; run++) task();
  const samplesMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    task();
    samplesMs.push(performance.now() - started);
  }
  return { medianMs: median(samplesMs), samplesMs };
}

export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1) return `${(milliseconds * 1000).toFixed(0)} µs`;
  if (milliseconds < 100) return `${milliseconds.toFixed(1)} ms`;
  if (milliseconds < 1000) return `${milliseconds.toFixed(0)} ms`;
  return `${(milliseconds / 1000).toFixed(milliseconds < 10_000 ? 2 : 1)} s`;
}
