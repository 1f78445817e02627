// context-postgres: many workers sharing one session, against a raw INSERT loop on the same server.
import type { BenchmarkOptions, Table } from "../lib/benchmark.js";
import { formatDuration } from "../lib/measure.js";
import { findPostgresUrl } from "../postgres/find-server.js";
import { measureSharedSession } from "../postgres/shared-session-rates.js";
import { generateSession } from "../sessions/generate-session.js";

export const name = "postgres";
export const description = "context-postgres: appends/s and request latency with 1, 4 and 16 workers on one session, against raw INSERTs";

const rate = (perSecond: number): string => Math.round(perSecond).toLocaleString("en");

export async function run({ quick }: BenchmarkOptions): Promise<Table[]> {
  const url = findPostgresUrl();
  if (url === undefined) {
    console.log("  postgres: no PostgreSQL server known (set CTXKIT_POSTGRES_URL, or run `bash scripts/postgres.sh start`); skipped.");
    return [
      {
        title: "context-postgres (skipped: no PostgreSQL server)",
        columns: ["note"],
        rows: [["run `bash scripts/postgres.sh start`, then `pnpm bench postgres`"]],
      },
    ];
  }
  const messages = generateSession({ messages: 2_000, meanOutputChars: 800 });
  const turnsTotal = quick ? 160 : 480;
  const cases = [1, 4, 16].map((workers) => ({ workers, turns: Math.max(10, Math.round(turnsTotal / workers)) }));
  const results = await measureSharedSession(url, cases, messages, quick ? 2 : 4);
  return [
    {
      title: "Workers sharing one PostgreSQL session: appends from all at once, then turns of an append and a view (128k budget)",
      columns: ["workers", "appends each", "ctxkit appends/s", "raw INSERTs/s", "ratio", "request median", "request p90", "history whole"],
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
        "Each worker is its own manager with its own 2-connection pool, as a separate process would be; all share this process's one CPU thread, the server the other core.",
        "An append is one statement: it reserves its sequence number on the session row (which orders the writers) and inserts the row. Appends waiting behind it share the next one.",
        "A request first syncs what the other workers appended since this worker's last read (one indexed row read, then the new rows), then builds its view;",
        "its latency includes waiting for the other workers' work on this process's one thread, so it grows with the workers here as it would not across machines.",
        "raw INSERTs: the same JSON bodies, one autocommitted INSERT each from as many connections, keeping no order and serving no views: the floor of the server's own cost.",
        "history whole: after each run, one worker's getMessages() held as many messages as were acknowledged (the package's multi-writer tests check each one, exactly once, in order).",
      ],
    },
  ];
}
