// Runs a detection over many seeds: fresh random ones (printed, so a miss can be replayed) or the
// ones CTXKIT_CONFORMANCE_SEEDS lists, and records each rate for `pnpm start` when asked to.
import { appendFileSync } from "node:fs";
import { createSeed } from "../../src/runner/run-conformance.js";

/** Seeds per broken module: a flaw the kit catches in every one of them is caught reliably, not by luck. */
export const SWEEP_SEEDS = 20;

/** The seeds of this run: CTXKIT_CONFORMANCE_SEEDS (comma-separated) to replay, else fresh random ones. */
export function sweepSeeds(): number[] {
  const listed = process.env["CTXKIT_CONFORMANCE_SEEDS"];
  if (listed !== undefined && listed !== "") return listed.split(",").map(Number);
  return Array.from({ length: SWEEP_SEEDS }, (_, index) => (createSeed() + index * 7919) >>> 0);
}

export interface SweepResult {
  readonly caught: number;
  readonly total: number;
  /** The seeds that missed, to replay with CTXKIT_CONFORMANCE_SEEDS. */
  readonly missed: readonly number[];
}

/** Runs `isCaught` once per seed, one after the other. */
export async function sweep(seeds: readonly number[], isCaught: (seed: number) => Promise<boolean>): Promise<SweepResult> {
  const missed: number[] = [];
  for (const seed of seeds) if (!(await isCaught(seed))) missed.push(seed);
  return { caught: seeds.length - missed.length, total: seeds.length, missed };
}

/** Appends one JSON line to the file CTXKIT_DETECTION_REPORT names, if any: `pnpm start` prints these. */
export function recordDetection(family: string, flaw: string, result: SweepResult): void {
  const file = process.env["CTXKIT_DETECTION_REPORT"];
  if (file === undefined || file === "") return;
  appendFileSync(file, `${JSON.stringify({ family, flaw, caught: result.caught, total: result.total, missed: result.missed })}\n`);
}

export function describeMisses(result: SweepResult): string {
  return `caught in ${result.caught}/${result.total} seeds; replay the misses with CTXKIT_CONFORMANCE_SEEDS=${result.missed.join(",")}`;
}
