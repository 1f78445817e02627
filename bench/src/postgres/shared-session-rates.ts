// Many workers on one PostgreSQL session: appends per second and request latency, against a raw INSERT loop.
import { randomUUID } from "node:crypto";
import { createPostgresContext } from "@ctxkit/context-postgres";
import type { Message } from "@ctxkit/core";
import pg from "pg";
import {
  driveWorkers,
  measureSharedSessionRates,
  messageFor,
  type SharedSessionCase,
  type SharedSessionRate,
} from "../lib/shared-session-rates.js";

const SCHEMA = "ctxkit_bench";

async function ctxkitRun(url: string, { workers, turns }: SharedSessionCase, messages: readonly Message[]) {
  const sessionId = randomUUID();
  const managers = await Promise.all(
    Array.from({ length: workers }, () =>
      createPostgresContext({ connectionString: url, schema: SCHEMA, sessionId, tokenizer: "estimate", maxConnections: 2 }),
    ),
  );
  return driveWorkers(managers, turns, messages);
}

/** The floor: the same JSON bodies, one autocommitted INSERT each from `workers` connections, with no order kept. */
async function rawRun(url: string, { workers, turns }: SharedSessionCase, messages: readonly Message[]): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: workers });
  const table = `"${SCHEMA}"."raw_inserts"`;
  await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (session_id text NOT NULL, body text NOT NULL)`);
  const sessionId = randomUUID();
  // Every connection made before the clock starts, as the managers' are: the loop times INSERTs, not connecting.
  const clients = await Promise.all(Array.from({ length: workers }, () => pool.connect()));
  for (const client of clients) client.release();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let turn = 0; turn < turns; turn += 1) {
        await pool.query(`INSERT INTO ${table} (session_id, body) VALUES ($1, $2)`, [
          sessionId,
          JSON.stringify(messageFor(messages, turns, worker, turn)),
        ]);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.query(`DELETE FROM ${table} WHERE session_id = $1`, [sessionId]);
  await pool.end();
  return (workers * turns) / seconds;
}

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
  return measureSharedSessionRates(cases, rounds, {
    ctxkit: (sharedCase) => ctxkitRun(url, sharedCase, messages),
    raw: (sharedCase) => rawRun(url, sharedCase, messages),
  });
}
