// Many workers on one PostgreSQL session: appends per second and request latency, against a raw INSERT loop.
import { randomUUID } from "node:crypto";
import { createPostgresContext } from "@ctxkit/context-postgres";
import type { Message } from "@ctxkit/core";
import pg from "pg";
import { median } from "../lib/measure.js";

export interface SharedSessionCase {
  readonly workers: number;
  /** Turns per worker: each turn is one append, then one request. */
  readonly turns: number;
}

export interface SharedSessionRate extends SharedSessionCase {
  readonly ctxkitAppendsPerSecond: number;
  readonly rawInsertsPerSecond: number;
  readonly medianRequestMs: number;
  readonly p90RequestMs: number;
  readonly historyChecked: boolean;
}

const SCHEMA = "ctxkit_bench";

const quantile = (values: readonly number[], share: number): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
};

/**
 * `workers` managers, each with its own connection pool as a separate process would have, on one
 * session: first they all append `turns` messages at once (the append rate), then each takes `turns`
 * agent turns, adding a message and asking for a view that holds every worker's messages so far.
 */
async function ctxkitRun(url: string, { workers, turns }: SharedSessionCase, messages: readonly Message[]) {
  const sessionId = randomUUID();
  const managers = await Promise.all(
    Array.from({ length: workers }, () =>
      createPostgresContext({ connectionString: url, schema: SCHEMA, sessionId, tokenizer: "estimate", maxConnections: 2 }),
    ),
  );
  const message = (worker: number, turn: number) => messages[(worker * turns + turn) % messages.length]!;
  const started = performance.now();
  await Promise.all(
    managers.map(async (manager, worker) => {
      for (let turn = 0; turn < turns; turn += 1) await manager.addMessage(message(worker, turn));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const requestMs: number[] = [];
  await Promise.all(
    managers.map(async (manager, worker) => {
      for (let turn = 0; turn < turns; turn += 1) {
        await manager.addMessage(message(worker, turn));
        const requestStarted = performance.now();
        await manager.getMessagesForRequest({ tokenBudget: 128_000 });
        requestMs.push(performance.now() - requestStarted);
      }
    }),
  );
  // Every acknowledged append is in the shared history: what a reader on any worker sees.
  const history = await managers[0]!.getMessages();
  await Promise.all(managers.map((manager) => manager.close()));
  return { appendsPerSecond: (workers * turns) / seconds, requestMs, historyChecked: history.length === 2 * workers * turns };
}

/** The floor: the same JSON bodies, one autocommitted INSERT each from `workers` connections, with no order kept. */
async function rawRun(url: string, { workers, turns }: SharedSessionCase, messages: readonly Message[]): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: workers });
  const table = `"${SCHEMA}"."raw_inserts"`;
  await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (session_id text NOT NULL, body text NOT NULL)`);
  const sessionId = randomUUID();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let turn = 0; turn < turns; turn += 1) {
        await pool.query(`INSERT INTO ${table} (session_id, body) VALUES ($1, $2)`, [
          sessionId,
          JSON.stringify(messages[(worker * turns + turn) % messages.length]),
        ]);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.query(`DELETE FROM ${table} WHERE session_id = $1`, [sessionId]);
  await pool.end();
  return (workers * turns) / seconds;
}

/** The two alternate round by round, and medians are kept, since the server shares the machine. */
export async function measureSharedSession(
  url: string,
  cases: readonly SharedSessionCase[],
  messages: readonly Message[],
  rounds: number,
): Promise<SharedSessionRate[]> {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  await setup.query(`CREATE SCHEMA "${SCHEMA}"`);
  await setup.end();
  const results: SharedSessionRate[] = [];
  for (const sharedCase of cases) {
    const ctxkit: number[] = [];
    const raw: number[] = [];
    const requestMs: number[] = [];
    let historyChecked = true;
    for (let round = 0; round < rounds; round += 1) {
      if (round % 2 === 0) raw.push(await rawRun(url, sharedCase, messages));
      const run = await ctxkitRun(url, sharedCase, messages);
      ctxkit.push(run.appendsPerSecond);
      requestMs.push(...run.requestMs);
      historyChecked &&= run.historyChecked;
      if (round % 2 === 1) raw.push(await rawRun(url, sharedCase, messages));
    }
    results.push({
      ...sharedCase,
      ctxkitAppendsPerSecond: median(ctxkit),
      rawInsertsPerSecond: median(raw),
      medianRequestMs: median(requestMs),
      p90RequestMs: quantile(requestMs, 0.9),
      historyChecked,
    });
  }
  return results;
}
