// The tables a session lives in and the procedure that appends to them, created by the module itself, and the names it uses.

export interface TableNames {
  readonly sessions: string;
  readonly messages: string;
  readonly state: string;
  /** One row per server connection that made an append durable: see `flushWal`. */
  readonly flushes: string;
  /** Not a table: the procedure an append calls, its commit and its flush in one round trip (see `appendRows`). */
  readonly appendProcedure: string;
}

/** Quoted, schema-qualified names; the parts were validated as plain identifiers by the config. */
export function tableNames(schema: string, table: string): TableNames {
  const name = (suffix: string) => `"${schema}"."${table}_${suffix}"`;
  return {
    sessions: name("sessions"),
    messages: name("messages"),
    state: name("state"),
    flushes: name("flushes"),
    appendProcedure: name("append"),
  };
}

/**
 * The write whose commit flushes the WAL (see `flushWal`): this connection's row of the flushes table,
 * which no other connection touches, so it waits for no one.
 */
export function flushSql(names: TableNames): string {
  return `INSERT INTO ${names.flushes} (backend_pid) VALUES (pg_backend_pid())
    ON CONFLICT (backend_pid) DO UPDATE SET flushes = ${names.flushes}.flushes + 1`;
}

/** The append procedure's signature: how the migration finds it. */
const APPEND_ARGUMENTS = "text, text[], bigint";

/** The SQLSTATE (`no_data_found`) the append procedure raises when the session row is missing. */
export const SESSION_ROW_MISSING = "P0002";

// Taken by every migration, so workers starting at once do not race on CREATE.
export const MIGRATION_LOCK_KEY = 0x63746b74; // "ctkt"

/**
 * One row per session: its generation (bumped by every replace or clear), the last sequence number
 * handed out in that generation, a version bumped by every state write, and when the newest message was
 * appended (`last_added_at`, epoch milliseconds; NULL when unknown: after a replace, or rows from before it).
 * Messages are JSON text, not jsonb: text keeps every key's order, so a message comes back exactly as it
 * was given and a view's prefix stays byte-stable for prompt caching.
 * The flushes table holds one row per server process (its pid) that made a commit durable: a write of a
 * row only that connection touches, whose synchronous commit flushes the WAL before it. Process ids are
 * reused, so it stays bounded: a few dozen bytes for each process id that ever flushed.
 * The append procedure is made only when missing: replacing it at every open would need its owner's role
 * and would drop every connection's cached plan of it. So a change to its body needs a new name (older
 * workers may still call the old one while newer ones open).
 */
export function migrationSql(schema: string, names: TableNames): string[] {
  return [
    `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
    `CREATE TABLE IF NOT EXISTS ${names.sessions} (
      session_id text PRIMARY KEY,
      generation bigint NOT NULL DEFAULT 0,
      last_seq bigint NOT NULL DEFAULT 0,
      state_version bigint NOT NULL DEFAULT 0,
      last_added_at bigint
    )`,
    // Tables made before the column: added once. ALTER TABLE locks the table even when the column exists,
    // which would stall every appender at each worker's open, so it runs only when the column is missing.
    `DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = '${names.sessions}'::regclass AND attname = 'last_added_at' AND NOT attisdropped) THEN
        ALTER TABLE ${names.sessions} ADD COLUMN IF NOT EXISTS last_added_at bigint;
      END IF;
    END $$`,
    `CREATE TABLE IF NOT EXISTS ${names.messages} (
      session_id text NOT NULL,
      generation bigint NOT NULL,
      seq bigint NOT NULL,
      body text NOT NULL,
      PRIMARY KEY (session_id, generation, seq)
    )`,
    `CREATE TABLE IF NOT EXISTS ${names.state} (
      session_id text NOT NULL,
      strategy text NOT NULL,
      key text NOT NULL,
      value text NOT NULL,
      version bigint NOT NULL,
      PRIMARY KEY (session_id, strategy, key)
    )`,
    `CREATE TABLE IF NOT EXISTS ${names.flushes} (
      backend_pid integer PRIMARY KEY,
      flushes bigint NOT NULL DEFAULT 0
    )`,
    `DO $$ BEGIN
      IF to_regprocedure('${names.appendProcedure}(${APPEND_ARGUMENTS})') IS NULL THEN
        ${appendProcedureSql(names)};
      END IF;
    END $$`,
  ];
}

/**
 * An append in one round trip (see `appendRows`): the first transaction reserves the sequence numbers on
 * the session row, whose lock orders concurrent appenders, records when (`last_added_at`, the caller's
 * clock, never moved back by a worker whose clock is behind), inserts the rows under those numbers, and
 * commits without waiting for the WAL flush (`synchronous_commit` off for that transaction alone, set in
 * the same statement), which releases the row lock; the second writes this connection's row of the flushes
 * table and commits with the server's own `synchronous_commit` when the call returns, so the WAL is flushed
 * past the first before the caller hears back. Without the session row nothing is inserted, and the call
 * raises `no_data_found` before its first commit. It returns nothing, so there is no row to send and parse.
 * Transaction control needs a procedure called outside any transaction block, and no SET clause on it.
 */
function appendProcedureSql(names: TableNames): string {
  return `CREATE PROCEDURE ${names.appendProcedure}(appended_session text, appended_bodies text[], appended_at bigint)
  LANGUAGE plpgsql AS $append$
  DECLARE
    inserted bigint;
  BEGIN
    WITH reserved AS (
      UPDATE ${names.sessions} SET last_seq = last_seq + cardinality(appended_bodies), last_added_at = GREATEST(last_added_at, appended_at)
      WHERE session_id = appended_session
      RETURNING generation, last_seq, set_config('synchronous_commit', 'off', true)
    )
    INSERT INTO ${names.messages} (session_id, generation, seq, body)
    SELECT appended_session, reserved.generation, reserved.last_seq - cardinality(appended_bodies) + rows.position, rows.body
    FROM reserved, unnest(appended_bodies) WITH ORDINALITY AS rows(body, position);
    GET DIAGNOSTICS inserted = ROW_COUNT;
    IF inserted <> cardinality(appended_bodies) THEN
      RAISE EXCEPTION USING ERRCODE = '${SESSION_ROW_MISSING}', MESSAGE = 'the session row is missing';
    END IF;
    COMMIT;
    ${flushSql(names)};
  END $append$`;
}
