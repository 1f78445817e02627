// A session in Redis (or Valkey) that many processes write at once: one list, one order for every writer.
import { createHash } from "node:crypto";
import {
  ContextArgumentError,
  ContextClosedError,
  ContextHistoryConflictError,
  ContextStateConflictError,
  type Message,
} from "@ctxkit/core";
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
import type { RedisClient } from "./config-schema.js";
import { ContextStoreCorruptError, ContextStoreUnavailableError } from "./errors.js";
import { APPEND_SCRIPT, REPLACE_SCRIPT, SYNC_SCRIPT, WRITE_STATE_SCRIPT } from "./lua-scripts.js";
import { bounded, createConnection, describeServer, whenConnected } from "./redis-connection.js";
import { redactedCause, redisCredentials } from "./redis-credentials.js";
import {
  checkScriptReply,
  parseStateEntry,
  parseStoredMessage,
  parseSyncReply,
  SESSION_CHECK_LUA,
  wrongTypeCorruption,
} from "./record-validation.js";

export interface RedisMessageStoreOptions {
  readonly sessionId: string;
  /** The server's `redis://` URL: the store opens its own connection and closes it. Give this or `client`. */
  readonly url?: string;
  /** A client the caller owns (a cluster, say): the store uses it and leaves it open at close. */
  readonly client?: RedisClient;
  /** Default `ctxkit:`. */
  readonly keyPrefix?: string;
  /** Default 10,000. */
  readonly connectTimeoutMs?: number;
  /** Default 5,000. */
  readonly commandTimeoutMs?: number;
}

/** An operation's item with its place in call order, by which a connection failure fails it at once. */
interface Queued<Item> {
  readonly item: Item;
  readonly ticket: number;
}

/** What this store last saw of the session: its generation, how many messages, its state version. */
interface Seen {
  readonly generation: number;
  readonly length: number;
  readonly stateVersion: number;
}

// Every script first checks the keys' types and the meta counters (record-validation.ts).
const script = (body: string) => {
  const text = SESSION_CHECK_LUA + body;
  return { text, sha: createHash("sha1").update(text).digest("hex") };
};
const SCRIPTS = {
  sync: script(SYNC_SCRIPT),
  append: script(APPEND_SCRIPT),
  writeState: script(WRITE_STATE_SCRIPT),
  replace: script(REPLACE_SCRIPT),
};
const stateField = (strategy: string, key: string): string => `${strategy}\u0000${key}`;
const NOTHING_SEEN: Seen = { generation: -1, length: 0, stateVersion: -1 };

/**
 * The multi-writer protocol (see architecture/redis-multi-writer.md), each step one atomic command:
 * - an append is one script that pushes its group (RPUSH) and records the session's last append time:
 *   its place in the list is its sequence number, so every writer sees one order with no gaps, and an
 *   acknowledged append is in the list once;
 * - a sync is one script that reads the generation, the messages after those this store saw and, when
 *   its version moved, the state, all at one instant;
 * - `replace` and `clear` are one script that swaps the list and the state and bumps the generation, so
 *   a worker that syncs and finds another generation reloads the whole session;
 * - a state key carries a version, and a write applies only over the version this store last saw
 *   (compare-and-set); otherwise it is refused with `ContextStateConflictError`, and nothing is written.
 */
export class RedisMessageStore implements MessageStore {
  readonly sessionId: string;
  readonly location: string;
  private readonly options: RedisMessageStoreOptions;
  private readonly keys: readonly [meta: string, messages: string, state: string];
  private readonly commandTimeoutMs: number;
  private client: RedisClient | undefined;
  private seen: Seen = NOTHING_SEEN;
  /** The version of each state field this store last saw or wrote. */
  private versions = new Map<string, number>();
  /**
   * Every write and read in call order, each after the previous one settled; appends called while earlier
   * operations run share the next RPUSH; after a failed write, no later write runs.
   */
  private readonly queue: WriteQueue<Queued<Message>>;
  /** Operations queued so far, and the last one queued when the connection last failed: those fail with it. */
  private queued = 0;
  private unreachable: { readonly error: unknown; readonly through: number } | undefined;
  private closing: Promise<void> | undefined;
  /** The connection's password (and user:password), removed from every driver error this store reports. */
  private readonly secrets: readonly string[];

  constructor(options: RedisMessageStoreOptions) {
    if ((options?.url === undefined) === (options?.client === undefined)) {
      throw new ContextArgumentError("RedisMessageStore", [
        { path: "options.url, options.client", message: "give exactly one: a redis:// URL, or a connected ioredis client" },
      ]);
    }
    this.options = options;
    this.secrets = redisCredentials(options);
    this.sessionId = options.sessionId;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 5_000;
    const base = `${options.keyPrefix ?? "ctxkit:"}{${options.sessionId}}:`;
    this.keys = [`${base}meta`, `${base}messages`, `${base}state`];
    this.location = `redis:${describeServer(options)}#${base.slice(0, -1)}`;
    this.queue = new WriteQueue<Queued<Message>>({
      commit: (group) => this.pushMessages(group),
      grouping: "queued",
      toFailure: (error) => this.unavailable(error),
    });
  }

  async open(): Promise<void> {
    if (this.client !== undefined) throw misusedStore("RedisMessageStore.open", "already opened; a store opens once, so make a new one");
    const timeoutMs = this.options.connectTimeoutMs ?? 10_000;
    const ownsClient = this.options.client === undefined;
    const client = this.options.client ?? createConnection(this.options.url!, timeoutMs);
    this.client = client;
    try {
      await bounded(whenConnected(client, ownsClient), timeoutMs, `no connection within ${timeoutMs} ms (connectTimeoutMs)`);
    } catch (error) {
      if (ownsClient) client.disconnect();
      throw this.unavailable(error);
    }
  }

  load(): Promise<StoredSession> {
    return this.read(async () => {
      const update = await this.readChanges(NOTHING_SEEN);
      return update.kind === "reset" ? update.session : { messages: [], state: new Map() };
    });
  }

  append(message: Message): Promise<void> {
    const refusal = this.refusal();
    if (refusal !== undefined) return Promise.reject(refusal);
    return this.queue.append({ item: message, ticket: this.nextTicket() });
  }

  async writeState(change: StateChange): Promise<void> {
    let isConflict = false;
    await this.write(async () => {
      const field = stateField(change.strategy, change.key);
      const isDelete = "deleted" in change;
      const value = isDelete ? "" : JSON.stringify(change.value);
      const known = String(this.versions.get(field) ?? 0);
      const [version, stateVersion] = (await this.run(SCRIPTS.writeState, [field, known, isDelete ? "1" : "0", value])) as number[];
      if (version === -1) {
        // Another writer changed this key first: its value stands, the next sync reads it, then a retry can apply.
        this.seen = { ...this.seen, stateVersion: -1 };
        isConflict = true;
        return;
      }
      // Only when no other writer changed state since this store last read it can it skip the next re-read.
      this.seen = { ...this.seen, stateVersion: stateVersion === this.seen.stateVersion + 1 ? stateVersion! : -1 };
      if (version === 0) this.versions.delete(field);
      else this.versions.set(field, version!);
    });
    // Refused, not failed: nothing was written, so later writes go on.
    if (isConflict) throw new ContextStateConflictError(change.strategy, change.key);
  }

  /**
   * With `expected`, the script checks first that the session still has the generation this store last saw
   * and `expected.length` messages; a script runs alone on the server, so no append lands in between. On a
   * mismatch nothing is written and the call rejects with `ContextHistoryConflictError` (the store stays usable).
   */
  async replace(messages: readonly Message[], state: StateSnapshot, expected?: ReplaceExpectation): Promise<void> {
    let isConflict = false;
    await this.write(async () => {
      const fields: string[] = [];
      for (const [strategy, values] of state)
        for (const [key, value] of values) fields.push(stateField(strategy, key), JSON.stringify(value));
      const bodies = messages.map((message) => JSON.stringify(message));
      const expectation = expected === undefined ? ["", ""] : [String(this.seen.generation), String(expected.length)];
      const [generation, stateVersion] = (await this.run(SCRIPTS.replace, [
        String(messages.length),
        ...expectation,
        ...bodies,
        ...fields,
      ])) as number[];
      if (generation === -1) {
        // Another writer changed the history first: it stands, and the next sync reads it.
        isConflict = true;
        return;
      }
      // This store holds exactly what it wrote: nothing to sync back.
      this.seen = { generation: generation!, length: messages.length, stateVersion: stateVersion! };
      this.versions = new Map(fields.filter((_, index) => index % 2 === 0).map((field) => [field, stateVersion!]));
    });
    // Refused, not failed: nothing was written, so later writes go on.
    if (isConflict) throw new ContextHistoryConflictError(this.location, expected!.length);
  }

  clear(state: StateSnapshot): Promise<void> {
    return this.replace([], state);
  }

  sync(): Promise<StoreUpdate> {
    return this.read(() => this.readChanges(this.seen));
  }

  /** Waits for every write (each bounded by the command timeout), then closes its own connection within that bound too. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.queue.settled();
      const client = this.client;
      if (client === undefined || this.options.client !== undefined) return;
      await bounded(client.quit(), this.commandTimeoutMs, "quit").catch(() => {});
      // A frozen connection never answers QUIT: drop the socket either way.
      client.disconnect();
    })();
    return this.closing;
  }

  /**
   * One script for a group of appends, which pushes them and records when (`lastAddedAt`) in the same
   * step; the group fails at once when the connection failed after they were queued.
   */
  private async pushMessages(group: readonly Queued<Message>[]): Promise<void> {
    this.assertReachable(group[0]!.ticket);
    await this.run(SCRIPTS.append, [String(Date.now()), ...group.map((entry) => JSON.stringify(entry.item))]).catch((error: unknown) => {
      throw wrongTypeCorruption(error, this.keys[1], this.location) ?? error;
    });
  }

  /** What changed since `seen`, read at one instant; the whole session when another writer replaced it. */
  private async readChanges(seen: Seen): Promise<StoreUpdate> {
    const reply = await this.run(SCRIPTS.sync, [String(seen.generation), String(seen.length), String(seen.stateVersion)]).catch(
      (error: unknown) => {
        throw this.unavailable(error);
      },
    );
    const { generation, stateVersion, isReset, bodies, hasState, fields, lastAddedAt } = parseSyncReply(reply, this.location);
    const from = isReset ? 0 : seen.length;
    const messages = bodies.map((body, index) => this.parseMessage(body, from + index + 1));
    const state = hasState ? this.parseState(fields) : undefined;
    this.seen = { generation, length: from + messages.length, stateVersion: hasState ? stateVersion : seen.stateVersion };
    const times = lastAddedAt === undefined || messages.length === 0 ? {} : { lastAddedAt };
    if (isReset) return { kind: "reset", session: { messages, state: state!, ...times } };
    if (messages.length === 0 && state === undefined) return { kind: "unchanged" };
    return { kind: "appended", messages, ...(state === undefined ? {} : { state }), ...times };
  }

  private parseMessage(body: string, seq: number): Message {
    return parseStoredMessage(body, seq, this.keys[1], this.location);
  }

  /** The state hash's fields and values, each checked, and each field's version into `versions`. */
  private parseState(fields: readonly string[]): Map<string, Map<string, unknown>> {
    const state = new Map<string, Map<string, unknown>>();
    const versions = new Map<string, number>();
    for (let index = 0; index < fields.length; index += 2) {
      const field = fields[index]!;
      const { strategy, key, version, value } = parseStateEntry(field, fields[index + 1]!, this.keys[2], this.location);
      const values = state.get(strategy) ?? new Map<string, unknown>();
      state.set(strategy, values);
      values.set(key, value);
      versions.set(field, version);
    }
    this.versions = versions;
    return state;
  }

  /** A script by its digest, sent whole the first time a server lacks it. */
  private async run(source: { text: string; sha: string }, args: readonly string[]): Promise<unknown> {
    const client = this.client!;
    let reply: unknown;
    try {
      reply = await this.command(client.evalsha(source.sha, this.keys.length, [...this.keys, ...args]));
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes("NOSCRIPT")) throw error;
      reply = await this.command(client.eval(source.text, this.keys.length, [...this.keys, ...args]));
    }
    return checkScriptReply(reply, this.location);
  }

  /** One command, failed once it goes unanswered for the command timeout (an injected client may have none of its own). */
  private async command<T>(reply: Promise<T>): Promise<T> {
    try {
      return await bounded(reply, this.commandTimeoutMs, `no answer within ${this.commandTimeoutMs} ms (commandTimeoutMs)`);
    } catch (error) {
      // The server answered with an error: the connection is fine. Anything else (a timeout, a drop) fails
      // every operation already queued at once, rather than each after its own timeout.
      if ((error as Error).name !== "ReplyError") this.unreachable = { error, through: this.queued };
      throw error;
    }
  }

  /** A write in call order; a failure stops every later write (a write called before close() still lands). */
  private write(body: () => Promise<void>): Promise<void> {
    const refusal = this.refusal();
    if (refusal !== undefined) return Promise.reject(refusal);
    const ticket = this.nextTicket();
    return this.queue.exclusive(async () => {
      this.assertReachable(ticket);
      await body();
    });
  }

  private read<T>(operation: () => Promise<T>): Promise<T> {
    const ticket = this.nextTicket();
    return this.queue.read(async () => {
      try {
        this.assertReachable(ticket);
      } catch (error) {
        throw this.unavailable(error);
      }
      return operation();
    });
  }

  /** An operation queued before the connection last failed fails with it at once, rather than after its own timeout. */
  private assertReachable(ticket: number): void {
    if (this.unreachable !== undefined && ticket <= this.unreachable.through) throw this.unreachable.error;
  }

  /** The place in call order of an operation queued now. */
  private nextTicket(): number {
    this.queued += 1;
    return this.queued;
  }

  private refusal(): Error | undefined {
    if (this.closing !== undefined || this.client === undefined) return new ContextClosedError(this.location, "closed");
    if (this.queue.failure !== undefined) return this.queue.failure.error as Error;
    return undefined;
  }

  private unavailable(error: unknown): unknown {
    if (error instanceof ContextStoreCorruptError || error instanceof ContextStoreUnavailableError || error instanceof ContextClosedError)
      return error;
    // The driver's error, copied without the password: ioredis keeps a failed AUTH's arguments on it.
    return new ContextStoreUnavailableError(this.location, { cause: redactedCause(error, this.secrets) });
  }
}
