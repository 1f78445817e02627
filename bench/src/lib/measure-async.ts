// Times an async task: the median of several runs, each preceded by an untimed setup.
import { median, type Measurement } from "./measure.js";

export async function measureAsync(
  task: () => Promise<unknown>,
  options: { runs?: number; setup?: () => Promise<unknown> } = {},
): Promise<Measurement> {
  const { runs = 5, setup } = options;
  const samplesMs: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    await setup?.();
    const started = performance.now();
    await task();
    samplesMs.push(performance.now() - started);
  }
  return { medianMs: median(samplesMs), samplesMs };
}
