// The store benches' one shape: skip without a server, else workers on one session against a raw write loop, as one table.
import type { Message } from "@ctxkit/core";
import type { BenchmarkOptions, Table } from "./benchmark.js";
import { formatDuration } from "./measure.js";
import type { SharedSessionCase, SharedSessionRate } from "./shared-session-rates.js";
import { generateSession } from "../sessions/generate-session.js";

export interface SharedSessionBench {
  /** The bench's name, e.g. `postgres`: `pnpm bench <name>`. */
  readonly name: string;
  /** The server's name, e.g. `PostgreSQL`. */
  readonly server: string;
  /** The server script under scripts/, e.g. `postgres.sh`. */
  readonly script: string;
  /** The environment variable naming the server, e.g. `CTXKIT_POSTGRES_URL`. */
  readonly urlVariable: string;
  /** The raw loop's column, e.g. `raw INSERTs/s`. */
  readonly rawColumn: string;
  readonly findUrl: () => string | undefined;
  readonly measure: (url: string, cases: SharedSessionCase[], messages: Message[], rounds: number) => Promise<SharedSessionRate[]>;
  /** What a worker is and what the store does per append and per request (the last note ends on the request). */
  readonly notes: readonly string[];
  /** What the raw loop does. */
  readonly rawNote: string;
}

const rate = (perSecond: number): string => Math.round(perSecond).toLocaleString("en");

export async function runSharedSessionBench(bench: SharedSessionBench, { quick }: BenchmarkOptions): Promise<Table[]> {
  const url = bench.findUrl();
  if (url === undefined) {
    console.log(
      `  ${bench.name}: no ${bench.server} server known (set ${bench.urlVariable}, or run \`bash scripts/${bench.script} start\`); skipped.`,
    );
    return [
      {
        title: `context-${bench.name} (skipped: no ${bench.server} server)`,
        columns: ["note"],
        rows: [[`run \`bash scripts/${bench.script} start\`, then \`pnpm bench ${bench.name}\``]],
      },
    ];
  }
  const messages = generateSession({ messages: 2_000, meanOutputChars: 800 });
  const turnsTotal = quick ? 160 : 480;
  const cases = [1, 4, 16].map((workers) => ({ workers, turns: Math.max(10, Math.round(turnsTotal / workers)) }));
  const results = await bench.measure(url, cases, messages, quick ? 2 : 4);
  return [
    {
      title: `Workers sharing one ${bench.server} session: appends from all at once, then turns of an append and a view (128k budget)`,
      columns: ["workers", "appends each", "ctxkit appends/s", bench.rawColumn, "ratio", "request median", "request p90", "history whole"],
      rows: results.map((entry) => [
        entry.workers,
        entry.turns,
        rate(entry.ctxkitAppendsPerSecond),
        rate(entry.rawWritesPerSecond),
        `${(entry.ctxkitAppendsPerSecond / entry.rawWritesPerSecond).toFixed(2)}×`,
        formatDuration(entry.medianRequestMs),
        formatDuration(entry.p90RequestMs),
        entry.historyChecked ? "yes" : "NO",
      ]),
      notes: [
        ...bench.notes,
        "its latency includes waiting for the other workers' work on this process's one thread, so it grows with the workers here as it would not across machines.",
        bench.rawNote,
        "history whole: after each run, one worker's getMessages() held as many messages as were acknowledged (the package's multi-writer tests check each one, exactly once, in order).",
      ],
    },
  ];
}
