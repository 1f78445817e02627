// The queries that read a session back: its row, a range of its messages, and its strategy state with each key's version.
import type { Message } from "@ctxkit/core";
import { parseDecodedMessage } from "@ctxkit/core/kit";
import type pg from "pg";
import { PostgresStoreCorruptError } from "./errors.js";
import type { TableNames } from "./schema-sql.js";

/** What a store knows of the session row: its generation, its last sequence number, its state version. */
export interface SessionRow {
  readonly generation: number;
  readonly lastSeq: number;
  readonly stateVersion: number;
  /** When the newest message was appended (epoch milliseconds); absent when unknown. */
  readonly lastAddedAt?: number;
}

/** The session row as one statement read it, and whether all that statement saw was durable then. */
export interface SessionRowRead {
  readonly row: SessionRow;
  readonly isDurable: boolean;
}

/** The strategies' state, and the version of each key it was read at. */
export interface StateRead {
  readonly state: Map<string, Map<string, unknown>>;
  readonly versions: Map<string, number>;
}

/** A pool for a single read, or a checked-out client for reads that must share one snapshot. */
export type Reader = pg.Pool | pg.PoolClient;

/** One key for a strategy's state key; a NUL cannot occur in PostgreSQL text, so no two pairs meet. */
export const stateKey = (strategy: string, key: string): string => `${strategy}\u0000${key}`;

export class SessionReads {
  constructor(
    private readonly names: TableNames,
    private readonly sessionId: string,
    private readonly location: string,
  ) {}

  /**
   * The session row, and whether everything this statement saw was already flushed to the WAL on disk:
   * an append commits before its flush (see `appendRows`), so a row it saw may not yet survive a crash of
   * the server. The WAL's insert position, read after the statement's snapshot was taken, lies past the
   * commit record of everything the snapshot sees; once the flush position has reached it, all of it is
   * durable. When not, the caller flushes (`flushWal`) before it shows what it read to anyone.
   */
  async row(reader: Reader): Promise<SessionRowRead> {
    const result = await reader.query<{
      generation: string;
      last_seq: string;
      state_version: string;
      last_added_at: string | null;
      durable: boolean;
    }>(
      `SELECT generation, last_seq, state_version, last_added_at, pg_current_wal_insert_lsn() <= pg_current_wal_flush_lsn() AS durable
       FROM ${this.names.sessions} WHERE session_id = $1`,
      [this.sessionId],
    );
    const row = result.rows[0];
    if (row === undefined) return { row: { generation: 0, lastSeq: 0, stateVersion: 0 }, isDurable: true };
    const counters = { generation: Number(row.generation), lastSeq: Number(row.last_seq), stateVersion: Number(row.state_version) };
    // bigint columns, but a hand edit can still make one negative or past what JavaScript counts exactly.
    for (const [name, value] of Object.entries(counters)) {
      if (!Number.isSafeInteger(value) || value < 0)
        throw new PostgresStoreCorruptError(
          this.location,
          { entry: `session row (${this.names.sessions})` },
          `${name} is ${value}, not a count ≥ 0`,
        );
    }
    if (row.last_added_at === null) return { row: counters, isDurable: row.durable };
    const lastAddedAt = Number(row.last_added_at);
    if (!Number.isSafeInteger(lastAddedAt) || lastAddedAt < 0)
      throw new PostgresStoreCorruptError(
        this.location,
        { entry: `session row (${this.names.sessions})` },
        `last_added_at is ${row.last_added_at}, not a time in milliseconds since 1970 (set it to NULL to make it unknown)`,
      );
    return { row: { ...counters, lastAddedAt }, isDurable: row.durable };
  }

  /**
   * The row, every message of its generation and the state, read by one snapshot (`reader` in a
   * REPEATABLE READ transaction): the row's `last_seq` must then count exactly the rows there are.
   */
  async wholeSession(reader: Reader): Promise<SessionRowRead & { readonly messages: Message[]; readonly state: StateRead }> {
    const { row, isDurable } = await this.row(reader);
    const messages = await this.messages(reader, row.generation, 0, row.lastSeq);
    if (messages.length !== row.lastSeq) {
      throw new PostgresStoreCorruptError(
        this.location,
        { entry: `session row (${this.names.sessions})` },
        `its last_seq says ${row.lastSeq} messages of generation ${row.generation}, but ${this.names.messages} holds ${messages.length} of them`,
      );
    }
    return { row, isDurable, messages, state: await this.state(reader) };
  }

  /**
   * The messages numbered `afterSeq + 1` to `throughSeq`. The upper bound matters: rows other workers
   * commit after the session row was read would otherwise be taken now and again at the next sync.
   */
  async messages(reader: Reader, generation: number, afterSeq: number, throughSeq: number): Promise<Message[]> {
    const result = await reader.query<{ seq: string; body: string }>(
      `SELECT seq, body FROM ${this.names.messages} WHERE session_id = $1 AND generation = $2 AND seq > $3 AND seq <= $4 ORDER BY seq`,
      [this.sessionId, generation, afterSeq, throughSeq],
    );
    return result.rows.map((row, index) => {
      // Rows commit whole and in order, so one query sees no gap: a missing sequence number was deleted by hand.
      if (Number(row.seq) !== afterSeq + index + 1) {
        throw new PostgresStoreCorruptError(
          this.location,
          { seq: afterSeq + index + 1 },
          `the row is missing (${this.names.messages} goes on at seq ${row.seq})`,
        );
      }
      try {
        return parseDecodedMessage(JSON.parse(row.body));
      } catch (error) {
        throw new PostgresStoreCorruptError(this.location, { seq: Number(row.seq) }, (error as Error).message, { cause: error });
      }
    });
  }

  /** Every state key of the session; a value that is not JSON is corruption, not a failed read. */
  async state(reader: Reader): Promise<StateRead> {
    const result = await reader.query<{ strategy: string; key: string; value: string; version: string }>(
      `SELECT strategy, key, value, version FROM ${this.names.state} WHERE session_id = $1`,
      [this.sessionId],
    );
    const state = new Map<string, Map<string, unknown>>();
    const versions = new Map<string, number>();
    for (const row of result.rows) {
      const values = state.get(row.strategy) ?? new Map<string, unknown>();
      state.set(row.strategy, values);
      try {
        values.set(row.key, JSON.parse(row.value) as unknown);
      } catch (error) {
        const record = { strategy: row.strategy, key: row.key };
        throw new PostgresStoreCorruptError(this.location, record, (error as Error).message, { cause: error });
      }
      const version = Number(row.version);
      if (!Number.isSafeInteger(version) || version < 1) {
        const record = { strategy: row.strategy, key: row.key };
        throw new PostgresStoreCorruptError(this.location, record, `its version is ${row.version}, not a whole number ≥ 1`);
      }
      versions.set(stateKey(row.strategy, row.key), version);
    }
    return { state, versions };
  }
}
