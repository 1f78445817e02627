// Appends that hold the session row only while they run, not through their commit's WAL flush, and are acknowledged once flushed.
import type { Message } from "@ctxkit/core";
import { ContextStoreCorruptError } from "@ctxkit/core/kit";
import type { Reader } from "./session-reads.js";
import { flushSql, SESSION_ROW_MISSING, type TableNames } from "./schema-sql.js";

/**
 * The append's one statement, prepared once per connection: the store's pool serves this store alone, so
 * the name always stands for the same text on it.
 */
const APPEND_STATEMENT = "ctxkit_append";

/**
 * One round trip: a call of the append procedure the migration made (`appendProcedureSql`), which runs two
 * transactions. The first reserves the sequence numbers on the session row (whose lock orders concurrent
 * appenders), records when and inserts the rows, and commits without waiting for the WAL flush, so the row
 * lock is released as soon as its commit record is written and the next appender goes on while this one's
 * flush is pending. The second is `flushWal`'s write, whose synchronous commit flushes the WAL past the first
 * before the call returns: the caller hears of the append only once it is durable. An error or a cut
 * connection between the two leaves the append committed, in its place, and unacknowledged.
 * It runs on the pool, never inside a transaction block, where a procedure may not commit.
 */
export async function appendRows(
  reader: Reader,
  names: TableNames,
  session: { readonly sessionId: string; readonly location: string },
  messages: readonly Message[],
): Promise<void> {
  try {
    await reader.query({
      name: APPEND_STATEMENT,
      text: `CALL ${names.appendProcedure}($1, $2, $3)`,
      values: [session.sessionId, messages.map((message) => JSON.stringify(message)), Date.now()],
    });
  } catch (error) {
    // The session row is made at open and never deleted; without it nothing would be stored, so say so.
    if ((error as { code?: unknown } | undefined)?.code === SESSION_ROW_MISSING)
      throw new ContextStoreCorruptError(
        session.location,
        { entry: "session row" },
        "it is missing: the tables were changed outside ctxkit",
      );
    throw error;
  }
}

/**
 * Returns once the WAL is flushed past every commit made before the call. The WAL is one sequence, so a
 * transaction's own synchronous commit flushes every record before its own: this one writes its
 * connection's row of the flushes table (no other connection touches it, so it waits for no one) and
 * commits with the server's own `synchronous_commit`. Calls on different connections at once share one
 * flush, as any concurrent commits do. A read that saw an append not yet flushed runs it.
 */
export async function flushWal(reader: Reader, names: TableNames): Promise<void> {
  await reader.query(flushSql(names));
}
