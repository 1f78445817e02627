// Appends that hold the session row only while they run, not through their commit's WAL flush, and are acknowledged once flushed.
import type { Message } from "@ctxkit/core";
import { ContextStoreCorruptError } from "@ctxkit/core/kit";
import type { Reader } from "./session-reads.js";
import type { TableNames } from "./schema-sql.js";

/**
 * One statement, so one round trip and its own transaction: it reserves the sequence numbers on the
 * session row (whose lock orders concurrent appenders), records when (`last_added_at`, this worker's clock,
 * never moved back by a worker whose clock is behind) and inserts the rows under them. It commits
 * without waiting for the WAL flush (`synchronous_commit` off for this transaction alone), so the row lock
 * is released as soon as the commit record is written and the next appender goes on while this one's
 * flush is pending; `flushWal` then makes it durable before the caller hears of it.
 */
export async function appendRows(
  reader: Reader,
  names: TableNames,
  session: { readonly sessionId: string; readonly location: string },
  messages: readonly Message[],
): Promise<void> {
  const inserted = await reader.query(
    `WITH reserved AS (
       UPDATE ${names.sessions} SET last_seq = last_seq + $2, last_added_at = GREATEST(last_added_at, $4) WHERE session_id = $1
       RETURNING generation, last_seq, set_config('synchronous_commit', 'off', true)
     )
     INSERT INTO ${names.messages} (session_id, generation, seq, body)
     SELECT $1, reserved.generation, reserved.last_seq - $2 + rows.position, rows.body
     FROM reserved, unnest($3::text[]) WITH ORDINALITY AS rows(body, position)`,
    [session.sessionId, messages.length, messages.map((message) => JSON.stringify(message)), Date.now()],
  );
  // The session row is made at open and never deleted; without it nothing would be stored, so say so.
  if (inserted.rowCount !== messages.length)
    throw new ContextStoreCorruptError(session.location, { entry: "session row" }, "it is missing: the tables were changed outside ctxkit");
  await flushWal(reader, names);
}

/**
 * Returns once the WAL is flushed past every commit made before the call. The WAL is one sequence, so a
 * transaction's own synchronous commit flushes every record before its own: this one writes its
 * connection's row of the flushes table (no other connection touches it, so it waits for no one) and
 * commits with the server's own `synchronous_commit`. Calls on different connections at once share one
 * flush, as any concurrent commits do.
 */
export async function flushWal(reader: Reader, names: TableNames): Promise<void> {
  await reader.query(
    `INSERT INTO ${names.flushes} (backend_pid) VALUES (pg_backend_pid())
     ON CONFLICT (backend_pid) DO UPDATE SET flushes = ${names.flushes}.flushes + 1`,
  );
}
