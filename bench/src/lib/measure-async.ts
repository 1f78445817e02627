// Times an async task: the median of several runs, each preceded by an untimed setup.
import { median, type Measurement } from "./measure.js";

export async function measureAsync(
  task: () => Promise<unknown>,
  options: { runs?: number; setup?: () => Promise<unknown>; warmup?: number } = {},
): Promise<Measurement> {
  const { runs = 5, setup, warmup = 0 } = options;
  // Untimed runs first, each after its setup too, so the JIT has seen the task before the first timed one.
  for (let run = 0; run < warmup; run += 1) {
    await setup?.();
    await task();
  }
  const samplesMs: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    await setup?.();
    const started = performance.now();
    await task();
    samplesMs.push(performance.now() - started);
  }
  return { medianMs: median(samplesMs), samplesMs };
}
