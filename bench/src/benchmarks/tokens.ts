// ctxkit's exact counter against raw js-tiktoken and gpt-tokenizer, on pathological and ordinary text.
import type { BenchmarkOptions, Cell, Table } from "../lib/benchmark.js";
import { formatDuration, median } from "../lib/measure.js";
import { runInChild } from "../lib/run-in-child.js";
import { type CountReport, LIBRARIES, type Library } from "../tokens/count-protocol.js";
import { type Input, createInputs } from "../tokens/token-inputs.js";

export const name = "tokens";
export const description = "Token counting (o200k_base): ctxkit vs raw js-tiktoken vs gpt-tokenizer, one child process each";

interface Timing {
  readonly input: Input;
  readonly library: Library;
  readonly importMs: number | undefined;
  readonly initMs: number | undefined;
  /** Warm runs, or the cold one when no warm run finished in time. */
  readonly samplesMs: readonly number[];
  readonly isColdOnly: boolean;
  readonly tokens: number | undefined;
  readonly timeLimitMs: number;
}

async function time(library: Library, input: Input, quick: boolean): Promise<Timing> {
  const timeLimitMs = input.isPathological ? (quick ? 1_000 : 10_000) : quick ? 10_000 : 60_000;
  const { reports } = await runInChild<CountReport>(
    new URL("../tokens/count-in-child.ts", import.meta.url),
    { library, text: input.text, runs: quick ? 3 : 7 },
    { timeLimitMs, startsClock: (report) => report.kind === "ready" },
  );
  const ready = reports.find((report) => report.kind === "ready");
  const samples = reports.filter((report) => report.kind === "sample");
  const warm = samples.filter((sample) => !sample.isCold);
  const chosen = warm.length > 0 ? warm : samples;
  return {
    input,
    library,
    importMs: ready?.importMs,
    initMs: ready?.initMs,
    samplesMs: chosen.map((sample) => sample.milliseconds),
    isColdOnly: warm.length === 0 && samples.length > 0,
    tokens: samples[0]?.tokens,
    timeLimitMs,
  };
}

function ratio(timing: Timing, baseline: Timing | undefined): string {
  const baselineMs = baseline === undefined ? Number.NaN : median(baseline.samplesMs);
  if (timing.samplesMs.length === 0) return `> ${(timing.timeLimitMs / baselineMs).toFixed(0)}×`;
  const value = median(timing.samplesMs) / baselineMs;
  return `${value < 10 ? value.toFixed(2) : value.toFixed(0)}×`;
}

function agreement(timing: Timing, baseline: Timing | undefined): string {
  if (timing.tokens === undefined || baseline?.tokens === undefined) return "—";
  const difference = timing.tokens - baseline.tokens;
  if (difference === 0) return "same";
  return `${difference > 0 ? "+" : ""}${difference} (${((difference / baseline.tokens) * 100).toFixed(3)}%)`;
}

function countRow(timing: Timing, baseline: Timing | undefined): Cell[] {
  const isTimedOut = timing.samplesMs.length === 0;
  const runs = isTimedOut ? "0" : timing.isColdOnly ? "1 (cold)" : String(timing.samplesMs.length);
  return [
    timing.input.label,
    timing.library,
    isTimedOut ? `> ${timing.timeLimitMs / 1000} s` : formatDuration(median(timing.samplesMs)),
    runs,
    ratio(timing, baseline),
    timing.tokens ?? "—",
    timing.library === "ctxkit" ? "" : agreement(timing, baseline),
  ];
}

function loadRow(library: Library, timings: readonly Timing[]): Cell[] {
  const own = timings.filter((timing) => timing.library === library);
  const importMs = median(own.flatMap((timing) => (timing.importMs === undefined ? [] : [timing.importMs])));
  const initMs = median(own.flatMap((timing) => (timing.initMs === undefined ? [] : [timing.initMs])));
  return [library, formatDuration(importMs), formatDuration(initMs), formatDuration(importMs + initMs), own.length];
}

export async function run({ quick }: BenchmarkOptions): Promise<Table[]> {
  const timings: Timing[] = [];
  for (const input of createInputs(quick)) {
    for (const library of LIBRARIES) {
      process.stderr.write(`  tokens: ${library} on ${input.label}\n`);
      timings.push(await time(library, input, quick));
    }
  }
  const rows = timings.map((timing) =>
    countRow(
      timing,
      timings.find((other) => other.input === timing.input && other.library === "ctxkit"),
    ),
  );
  return [
    {
      title: "One-time load, o200k_base (median over fresh processes)",
      columns: ["library", "import", "build encoder", "total", "processes"],
      rows: LIBRARIES.map((library) => loadRow(library, timings)),
      notes: [
        "ctxkit: `import('@ctxkit/core')` (the whole package), then the first count(), which loads and parses the ranks.",
        "js-tiktoken: importing lite + the o200k rank module, then `new Tiktoken(ranks)`.",
        "Imports run under tsx's loader in the child, which slows them for every library alike.",
      ],
    },
    {
      title: "Counting one text (median of warm runs, else the cold first run; × ctxkit = time / ctxkit's time)",
      columns: ["input", "library", "median", "runs", "× ctxkit", "tokens", "tokens vs ctxkit"],
      rows,
      notes: [
        "Each library runs in its own child process; the time limit counts from after its load.",
        "After the first run, each run counts the text with a different leading letter, so no cache of whole pieces can answer it.",
        "js-tiktoken has no count(), so it is timed on encode().length; ctxkit and gpt-tokenizer count without building an array.",
        'ctxkit caps each BPE piece at 1,024 bytes, so a long unbroken run is counted in chunks; "tokens vs ctxkit" shows what that costs in exactness.',
      ],
    },
  ];
}
