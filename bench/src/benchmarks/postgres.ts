// context-postgres: many workers sharing one session, against a raw INSERT loop on the same server.
import type { BenchmarkOptions, Table } from "../lib/benchmark.js";
import { runSharedSessionBench } from "../lib/shared-session-table.js";
import { findPostgresUrl } from "../postgres/find-server.js";
import { measureSharedSession } from "../postgres/shared-session-rates.js";

export const name = "postgres";
export const description = "context-postgres: appends/s and request latency with 1, 4 and 16 workers on one session, against raw INSERTs";

export function run(options: BenchmarkOptions): Promise<Table[]> {
  return runSharedSessionBench(
    {
      name,
      server: "PostgreSQL",
      script: "postgres.sh",
      urlVariable: "CTXKIT_POSTGRES_URL",
      rawColumn: "raw INSERTs/s",
      findUrl: findPostgresUrl,
      measure: measureSharedSession,
      notes: [
        "Each worker is its own manager with its own 2-connection pool, as a separate process would be; all share this process's one CPU thread, the server the other core.",
        "An append is one round trip, a call of the store's append procedure: it reserves its sequence numbers on the session row (which orders the writers) and inserts the rows, committing without waiting for the WAL flush, so the row is free at once; then a second small write's commit flushes the WAL past it (shared with the other workers' flushes) before the call returns and the append is acknowledged. Appends waiting behind it share the next call.",
        "A request first syncs what the other workers appended since this worker's last read (one indexed row read, then the new rows, flushed first when one may not be on disk yet), then builds its view;",
      ],
      rawNote:
        "raw INSERTs: the same JSON bodies, one autocommitted INSERT each from as many connections, keeping no order and serving no views: the floor of the server's own cost.",
    },
    options,
  );
}
