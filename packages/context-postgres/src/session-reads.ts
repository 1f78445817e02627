// The queries that read a session back: its row, a range of its messages, and its strategy state with each key's version.
import { parseDecodedMessage, type Message } from "@ctxkit/core";
import type pg from "pg";
import { PostgresStoreCorruptError } from "./errors.js";
import type { TableNames } from "./schema-sql.js";

/** What a store knows of the session row: its generation, its last sequence number, its state version. */
export interface SessionRow {
  readonly generation: number;
  readonly lastSeq: number;
  readonly stateVersion: number;
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

  async row(reader: Reader): Promise<SessionRow> {
    const result = await reader.query<{ generation: string; last_seq: string; state_version: string }>(
      `SELECT generation, last_seq, state_version FROM ${this.names.sessions} WHERE session_id = $1`,
      [this.sessionId],
    );
    const row = result.rows[0];
    if (row === undefined) return { generation: 0, lastSeq: 0, stateVersion: 0 };
    return { generation: Number(row.generation), lastSeq: Number(row.last_seq), stateVersion: Number(row.state_version) };
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
    return result.rows.map((row) => {
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
      versions.set(stateKey(row.strategy, row.key), Number(row.version));
    }
    return { state, versions };
  }
}
