// context-redis: many workers sharing one session, against a raw RPUSH loop on the same server.
import type { BenchmarkOptions, Table } from "../lib/benchmark.js";
import { formatDuration } from "../lib/measure.js";
import { findRedisUrl } from "../redis/find-server.js";
import { measureSharedSession } from "../redis/shared-session-rates.js";
import { generateSession } from "../sessions/generate-session.js";

export const name = "redis";
export const description = "context-redis: appends/s and request latency with 1, 4 and 16 workers on one session, against raw RPUSHes";

const rate = (perSecond: number): string => Math.round(perSecond).toLocaleString("en");

export async function run({ quick }: BenchmarkOptions): Promise<Table[]> {
  const url = findRedisUrl();
  if (url === undefined) {
    console.log("  redis: no Redis server known (set CTXKIT_REDIS_URL, or run `bash scripts/redis.sh start`); skipped.");
    return [
      {
        title: "context-redis (skipped: no Redis server)",
        columns: ["note"],
        rows: [["run `bash scripts/redis.sh start`, then `pnpm bench redis`"]],
      },
    ];
  }
  const messages = generateSession({ messages: 2_000, meanOutputChars: 800 });
  const turnsTotal = quick ? 160 : 480;
  const cases = [1, 4, 16].map((workers) => ({ workers, turns: Math.max(10, Math.round(turnsTotal / workers)) }));
  const results = await measureSharedSession(url, cases, messages, quick ? 2 : 4);
  return [
    {
      title: "Workers sharing one Redis session: appends from all at once, then turns of an append and a view (128k budget)",
      columns: ["workers", "appends each", "ctxkit appends/s", "raw RPUSHes/s", "ratio", "request median", "request p90", "history whole"],
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
        "Each worker is its own manager with its own connection, as a separate process would be; all share this process's one CPU thread, the server the other core.",
        "The server is whatever the URL names; scripts/redis.sh starts one with appendonly yes and appendfsync always, so every acknowledged write was fsynced first.",
        "An append is one RPUSH: its place in the list is its sequence number. Appends waiting behind it share the next one.",
        "A request first syncs what the other workers appended since this worker's last read (one Lua script: the generation, the new messages, the state if it moved), then builds its view;",
        "its latency includes waiting for the other workers' work on this process's one thread, so it grows with the workers here as it would not across machines.",
        "raw RPUSHes: the same JSON bodies, one RPUSH each from as many connections, awaited one by one, serving no views: the floor of the server's own cost.",
        "history whole: after each run, one worker's getMessages() held as many messages as were acknowledged (the package's multi-writer tests check each one, exactly once, in order).",
      ],
    },
  ];
}
