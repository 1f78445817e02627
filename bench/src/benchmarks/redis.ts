// context-redis: many workers sharing one session, against a raw RPUSH loop on the same server.
import type { BenchmarkOptions, Table } from "../lib/benchmark.js";
import { runSharedSessionBench } from "../lib/shared-session-table.js";
import { findRedisUrl } from "../redis/find-server.js";
import { measureSharedSession } from "../redis/shared-session-rates.js";

export const name = "redis";
export const description = "context-redis: appends/s and request latency with 1, 4 and 16 workers on one session, against raw RPUSHes";

export function run(options: BenchmarkOptions): Promise<Table[]> {
  return runSharedSessionBench(
    {
      name,
      server: "Redis",
      script: "redis.sh",
      urlVariable: "CTXKIT_REDIS_URL",
      rawColumn: "raw RPUSHes/s",
      findUrl: findRedisUrl,
      measure: measureSharedSession,
      notes: [
        "Each worker is its own manager with its own connection, as a separate process would be; all share this process's one CPU thread, the server the other core.",
        "The server is whatever the URL names; scripts/redis.sh starts one with appendonly yes and appendfsync always, so every acknowledged write was fsynced first.",
        "An append is one Lua script: an RPUSH, whose place in the list is its sequence number, and the session's last append time. Appends waiting behind it share the next one.",
        "A request first syncs what the other workers appended since this worker's last read (one Lua script: the generation, the new messages, the state if it moved), then builds its view;",
      ],
      rawNote:
        "raw RPUSHes: the same JSON bodies, one RPUSH each from as many connections, awaited one by one, serving no views: the floor of the server's own cost.",
    },
    options,
  );
}
