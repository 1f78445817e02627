// The tables a session lives in, created by the module itself, and the names it queries them by.

export interface TableNames {
  readonly sessions: string;
  readonly messages: string;
  readonly state: string;
  /** One row per server connection that made an append durable: see `flushWal`. */
  readonly flushes: string;
}

/** Quoted, schema-qualified names; the parts were validated as plain identifiers by the config. */
export function tableNames(schema: string, table: string): TableNames {
  const name = (suffix: string) => `"${schema}"."${table}_${suffix}"`;
  return { sessions: name("sessions"), messages: name("messages"), state: name("state"), flushes: name("flushes") };
}

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
  ];
}
