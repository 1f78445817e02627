// A session in PostgreSQL that many processes write at once: one order for every writer, by sequence number.
import { ContextClosedError, ContextConfigError, ContextHistoryConflictError, ContextStateConflictError, type Message } from "@ctxkit/core";
import {
  type MessageStore,
  misusedStore,
  type ReplaceExpectation,
  type StateChange,
  type StateSnapshot,
  type StoredSession,
  type StoreUpdate,
  WriteQueue,
} from "@ctxkit/core/kit";
import type pg from "pg";
import {
  BoundedPool,
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  settlesWithin,
} from "./bounded-pool.js";
import { MODULE_NAME } from "./config-schema.js";
import { PostgresCloseTimeoutError } from "./errors.js";
import { MIGRATION_LOCK_KEY, migrationSql, tableNames, type TableNames } from "./schema-sql.js";
import { appendRows, flushWal } from "./durable-append.js";
import { describeServer, toStoreError, type FailureSubject } from "./store-failure.js";
import { postgresCredentials } from "./postgres-credentials.js";
import { sessionIdProblem } from "./session-id.js";
import { SessionReads, type SessionRow, type StateRead, stateKey } from "./session-reads.js";

export interface PostgresMessageStoreOptions {
  readonly connectionString: string;
  readonly sessionId: string;
  /** Prefix of the tables; a plain SQL identifier. Default `ctxkit`. */
  readonly table?: string;
  /** A plain SQL identifier. Default `public`. */
  readonly schema?: string;
  /** Connections in the pool. Default 4. */
  readonly maxConnections?: number;
  /** How long connecting may take, the server's startup answer included. Default 10 s. */
  readonly connectTimeoutMs?: number;
  /** How long one statement may run, on the server and, a second later, on the client. Default 30 s. */
  readonly statementTimeoutMs?: number;
  /** How long `close()` waits for pending writes and for the connections to end before cutting them. Default 10 s. */
  readonly closeTimeoutMs?: number;
}

/**
 * The multi-writer protocol (see architecture/postgres-multi-writer.md):
 * - an append reserves its sequence numbers by incrementing the session row's `last_seq` and inserts its
 *   rows in the same transaction; the row lock orders concurrent appenders, so sequence numbers commit in
 *   order and a reader never sees a gap; the lock is released at commit, before the WAL flush, and the
 *   append is acknowledged after it (`appendRows`); a read that saw an append not yet flushed flushes
 *   before it returns, so nobody is shown what a crash of the server could still take back;
 * - `replace` and `clear` bump the session's `generation`; a worker that syncs and finds another
 *   generation reloads the whole session;
 * - a state key carries a version, and a write applies only over the version this worker last saw
 *   (compare-and-set): of two workers writing one key at once, the first wins, the other's write rejects
 *   with `ContextStateConflictError` and its next sync reads the winner's value;
 * - every write is one transaction, so a dropped connection leaves all of it or none.
 */
export class PostgresMessageStore implements MessageStore {
  readonly sessionId: string;
  readonly location: string;
  private readonly options: PostgresMessageStoreOptions;
  private readonly names: TableNames;
  private readonly subject: FailureSubject;
  private readonly reads: SessionReads;
  private connections: BoundedPool | undefined;
  /** What this store last saw of the session row. */
  private seen: SessionRow = { generation: 0, lastSeq: 0, stateVersion: 0 };
  /** The version of each state key this store last saw or wrote. */
  private versions = new Map<string, number>();
  /**
   * Every write and read in call order, each after the previous one settled; appends called while earlier
   * operations run share the next transaction; after a failed write, no later write runs.
   */
  private readonly queue: WriteQueue<Message>;
  private closing: Promise<void> | undefined;
  /** Writes called and not settled yet: what `close()` reports when it has to give up on them. */
  private pendingWrites = 0;
  /** When the close bound started: at `beginClose()` (the manager's close()), else at this store's `close()`. */
  private closeStartedAt: number | undefined;
  /** Cuts the connections once the close bound runs out, if close() has not finished by then. */
  private closeTimer: NodeJS.Timeout | undefined;
  /** The writes still unconfirmed when that timer cut the connections. */
  private writesGivenUp = 0;

  /** Throws `ContextConfigError` for a session id the database could not keep apart from another. */
  constructor(options: PostgresMessageStoreOptions) {
    const problem = sessionIdProblem(options.sessionId);
    if (problem !== undefined) throw new ContextConfigError(MODULE_NAME, [{ path: "sessionId", message: problem }]);
    this.options = options;
    this.sessionId = options.sessionId;
    const schema = options.schema ?? "public";
    const table = options.table ?? "ctxkit";
    this.names = tableNames(schema, table);
    this.location = `postgres:${schema}.${table}#${options.sessionId}`;
    this.reads = new SessionReads(this.names, this.sessionId, this.location);
    this.subject = {
      location: this.location,
      server: describeServer(options.connectionString),
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      secrets: postgresCredentials(options.connectionString),
    };
    this.queue = new WriteQueue<Message>({
      commit: (messages) => appendRows(this.pool, this.names, this, messages),
      grouping: "queued",
      toFailure: (error) => toStoreError(error, this.subject),
    });
  }

  private get pool(): pg.Pool {
    return this.connections!.pool;
  }

  async open(): Promise<void> {
    if (this.connections !== undefined)
      throw misusedStore("PostgresMessageStore.open", "already opened; a store opens once, so make a new one");
    this.connections = new BoundedPool(this.options.connectionString, {
      maxConnections: this.options.maxConnections ?? 4,
      connectTimeoutMs: this.subject.connectTimeoutMs,
      statementTimeoutMs: this.subject.statementTimeoutMs,
    });
    try {
      await this.transaction(async (client) => {
        await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
        for (const statement of migrationSql(this.options.schema ?? "public", this.names)) await client.query(statement);
        await client.query(`INSERT INTO ${this.names.sessions} (session_id) VALUES ($1) ON CONFLICT DO NOTHING`, [this.sessionId]);
      });
    } catch (error) {
      throw toStoreError(error, this.subject);
    }
  }

  load(): Promise<StoredSession> {
    return this.queue.read(() => this.readSession());
  }

  append(message: Message): Promise<void> {
    const refusal = this.refusal();
    if (refusal !== undefined) return Promise.reject(refusal);
    return this.counted(this.queue.append(message));
  }

  /**
   * Compare-and-set over the version this store last loaded, synced or wrote for the key: when another
   * writer changed the key since, nothing is written and the call rejects with `ContextStateConflictError`
   * (the store stays usable, and its next sync reads the other writer's value).
   */
  async writeState(change: StateChange): Promise<void> {
    let isConflict = false;
    await this.write(async (client) => {
      const known = this.versions.get(stateKey(change.strategy, change.key)) ?? null;
      const { sessions, state } = this.names;
      let version: number | undefined;
      if ("deleted" in change) {
        const deleted = await client.query(`DELETE FROM ${state} WHERE session_id = $1 AND strategy = $2 AND key = $3 AND version = $4`, [
          this.sessionId,
          change.strategy,
          change.key,
          known,
        ]);
        if (deleted.rowCount === 1) version = 0;
        else if (known === null) {
          // Deleting a key this store never saw: only a row another writer made since is a conflict.
          const existing = await client.query(`SELECT 1 FROM ${state} WHERE session_id = $1 AND strategy = $2 AND key = $3`, [
            this.sessionId,
            change.strategy,
            change.key,
          ]);
          if (existing.rowCount === 0) return;
        }
      } else {
        const written = await client.query<{ version: string }>(
          `INSERT INTO ${state} (session_id, strategy, key, value, version) VALUES ($1, $2, $3, $4, 1)
           ON CONFLICT (session_id, strategy, key) DO UPDATE SET value = EXCLUDED.value, version = ${state}.version + 1
           WHERE ${state}.version = $5 RETURNING version`,
          [this.sessionId, change.strategy, change.key, JSON.stringify(change.value), known],
        );
        if (written.rows[0] !== undefined) version = Number(written.rows[0].version);
      }
      if (version === undefined) {
        // Another worker wrote this key first: its value stands, and the next sync reads it.
        this.seen = { ...this.seen, stateVersion: -1 };
        isConflict = true;
        return;
      }
      const row = await client.query<{ state_version: string }>(
        `UPDATE ${sessions} SET state_version = state_version + 1 WHERE session_id = $1 RETURNING state_version`,
        [this.sessionId],
      );
      const stateVersion = Number(row.rows[0]!.state_version);
      // Only when no other worker wrote state since this store last read it can it skip the next re-read.
      this.seen = { ...this.seen, stateVersion: stateVersion === this.seen.stateVersion + 1 ? stateVersion : -1 };
      if (version === 0) this.versions.delete(stateKey(change.strategy, change.key));
      else this.versions.set(stateKey(change.strategy, change.key), version);
    });
    if (isConflict) throw new ContextStateConflictError(change.strategy, change.key);
  }

  /**
   * With `expected`, the session row's update is also the check: it applies only while the row still has
   * the generation this store last saw and `expected.length` messages. The row lock it takes orders it
   * with every appender, so no append lands between the check and the replace; on a mismatch nothing is
   * written and the call rejects with `ContextHistoryConflictError` (the store stays usable).
   */
  async replace(messages: readonly Message[], state: StateSnapshot, expected?: ReplaceExpectation): Promise<void> {
    let isConflict = false;
    await this.write(async (client) => {
      const { sessions, messages: table, state: stateTable } = this.names;
      const condition = expected === undefined ? "" : " AND generation = $3 AND last_seq = $4";
      const row = await client.query<{ generation: string; state_version: string }>(
        `UPDATE ${sessions} SET generation = generation + 1, last_seq = $2, state_version = state_version + 1, last_added_at = NULL WHERE session_id = $1${condition}
         RETURNING generation, state_version`,
        [this.sessionId, messages.length, ...(expected === undefined ? [] : [this.seen.generation, expected.length])],
      );
      if (row.rows[0] === undefined && expected !== undefined) {
        // Another writer appended, replaced or cleared first: its history stands, and the next sync reads it.
        isConflict = true;
        return;
      }
      const generation = Number(row.rows[0]!.generation);
      await client.query(`DELETE FROM ${table} WHERE session_id = $1 AND generation < $2`, [this.sessionId, generation]);
      await this.insertMessages(client, generation, 1, messages);
      await client.query(`DELETE FROM ${stateTable} WHERE session_id = $1`, [this.sessionId]);
      const versions = new Map<string, number>();
      for (const [strategy, values] of state) {
        for (const [key, value] of values) {
          await client.query(`INSERT INTO ${stateTable} (session_id, strategy, key, value, version) VALUES ($1, $2, $3, $4, 1)`, [
            this.sessionId,
            strategy,
            key,
            JSON.stringify(value),
          ]);
          versions.set(stateKey(strategy, key), 1);
        }
      }
      // This store holds exactly what it wrote: nothing to sync back.
      this.seen = { generation, lastSeq: messages.length, stateVersion: Number(row.rows[0]!.state_version) };
      this.versions = versions;
    });
    // Refused, not failed: nothing was written, so later writes go on.
    if (isConflict) throw new ContextHistoryConflictError(this.location, expected!.length);
  }

  clear(state: StateSnapshot): Promise<void> {
    return this.replace([], state);
  }

  sync(): Promise<StoreUpdate> {
    return this.queue.read(async (): Promise<StoreUpdate> => {
      try {
        const { row, isDurable } = await this.reads.row(this.pool);
        if (row.generation !== this.seen.generation) return { kind: "reset", session: await this.readSession() };
        const messages =
          row.lastSeq > this.seen.lastSeq ? await this.reads.messages(this.pool, row.generation, this.seen.lastSeq, row.lastSeq) : [];
        // Fewer rows than the session row promised: another worker replaced the session in between.
        if (messages.length !== row.lastSeq - this.seen.lastSeq) return { kind: "reset", session: await this.readSession() };
        // Another worker's append may be committed but not yet on disk: make it so before this worker builds on it.
        if (messages.length > 0 && !isDurable) await flushWal(this.pool, this.names);
        const state = row.stateVersion !== this.seen.stateVersion ? this.takeVersions(await this.reads.state(this.pool)) : undefined;
        this.seen = row;
        if (messages.length === 0 && state === undefined) return { kind: "unchanged" };
        const times = messages.length === 0 || row.lastAddedAt === undefined ? {} : { lastAddedAt: row.lastAddedAt };
        return { kind: "appended", messages, ...(state === undefined ? {} : { state }), ...times };
      } catch (error) {
        throw toStoreError(error, this.subject);
      }
    });
  }

  /**
   * Waits for every write called before it, then ends the pool; safe to call twice. Bounded by
   * `closeTimeoutMs`: past it the connections are cut (each unsettled write then rejects), the pool is
   * released all the same, and `close()` rejects with `PostgresCloseTimeoutError` counting the writes it
   * gave up on. A close with no write left unconfirmed resolves, however slowly the connections ended.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  /**
   * Starts the close bound when the manager's close() begins, before it waits for the calls made before
   * it: once `closeTimeoutMs` runs out, the pool is ended and every connection cut, so a read or write
   * frozen on the network rejects then (and nothing new connects), rather than after its statement timeout.
   */
  beginClose(): void {
    const connections = this.connections;
    if (connections === undefined || this.closeStartedAt !== undefined) return;
    this.closeStartedAt = Date.now();
    this.closeTimer = setTimeout(() => {
      this.writesGivenUp = this.pendingWrites;
      void connections.end(0);
    }, this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
  }

  private async shutDown(): Promise<void> {
    const connections = this.connections;
    if (connections === undefined) return;
    const bound = this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    const started = (this.closeStartedAt ??= Date.now());
    const drained = await settlesWithin(this.queue.settled(), bound - (Date.now() - started));
    clearTimeout(this.closeTimer);
    const unconfirmedWrites = drained ? this.writesGivenUp : this.pendingWrites;
    if (!drained) connections.cut();
    await connections.end(bound - (Date.now() - started));
    if (unconfirmedWrites > 0) throw new PostgresCloseTimeoutError(this.location, bound, unconfirmedWrites);
  }

  private async insertMessages(client: pg.PoolClient, generation: number, firstSeq: number, messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    await client.query(
      `INSERT INTO ${this.names.messages} (session_id, generation, seq, body) SELECT $1, $2, seq, body FROM unnest($3::bigint[], $4::text[]) AS rows(seq, body)`,
      [this.sessionId, generation, messages.map((_, index) => firstSeq + index), messages.map((message) => JSON.stringify(message))],
    );
  }

  /** The whole session as one snapshot: the row, its messages and its state, however many workers write meanwhile. */
  private async readSession(): Promise<StoredSession> {
    try {
      const { row, isDurable, messages, state } = await this.transaction(
        (client) => this.reads.wholeSession(client),
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
      );
      // A write cannot run in that read-only snapshot: an append it saw that is not yet on disk is flushed after it.
      if (messages.length > 0 && !isDurable) await flushWal(this.pool, this.names);
      this.seen = row;
      return { messages, state: this.takeVersions(state), ...(row.lastAddedAt === undefined ? {} : { lastAddedAt: row.lastAddedAt }) };
    } catch (error) {
      throw toStoreError(error, this.subject);
    }
  }

  /** Remembers the versions of a state read: the next writes are compared against them. */
  private takeVersions(read: StateRead): StateRead["state"] {
    this.versions = read.versions;
    return read.state;
  }

  /** A write in call order, as one transaction; a failure stops every later write (a write called before close() still lands). */
  private write(body: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const refusal = this.refusal();
    if (refusal !== undefined) return Promise.reject(refusal);
    return this.counted(this.queue.exclusive(() => this.transaction(body)));
  }

  /** Counts `write` as pending until it settles: what `close()` reports when it has to give up on it. */
  private counted(write: Promise<void>): Promise<void> {
    this.pendingWrites += 1;
    return write.finally(() => {
      this.pendingWrites -= 1;
    });
  }

  private async transaction<T>(body: (client: pg.PoolClient) => Promise<T>, begin = "BEGIN"): Promise<T> {
    const client = await this.pool.connect();
    // A connection cut while checked out is reported by the query that was using it; its event must not crash the process.
    const ignore = () => {};
    client.on("error", ignore);
    let isBroken = false;
    try {
      await client.query(begin);
      const result = await body(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      isBroken = true;
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      // A connection that failed mid-transaction is not given back to the pool.
      client.off("error", ignore);
      client.release(isBroken);
    }
  }

  private refusal(): Error | undefined {
    if (this.closing !== undefined || this.connections === undefined) return new ContextClosedError(this.location, "closed");
    if (this.queue.failure !== undefined) return this.queue.failure.error as Error;
    return undefined;
  }
}
