// Stores for the store suite's hostile checks, each healthy or with one flaw: one over raw records a test can
// damage, one that fails its connection holding a secret, one whose network can freeze.
import { ContextClosedError, ContextError, ContextStoreCorruptError, ContextStoreUnavailableError, type Message } from "@ctxkit/core";
import {
  type MessageStore,
  parseDecodedMessage,
  redactCredentials,
  type StateChange,
  type StateSnapshot,
  type StoredSession,
} from "@ctxkit/core/kit";
import type { MessageStoreFactory, MessageStoreSuiteOptions } from "../../src/store/store-checks.js";
import type { CorruptRecordKind } from "../../src/store/store-hostile-checks.js";

export interface HostileSuite {
  readonly factory: MessageStoreFactory;
  readonly options: MessageStoreSuiteOptions;
}

/** A session's records as a backend holds them: text, which a hand edit can break. */
interface Disk {
  messages: string[];
  /** How many messages the session holds, as a backend's counter would. */
  count: string;
  state: Map<string, string>;
  /** What the messages are kept in: a list, until a hand edit replaces it with something else. */
  type: "list" | "string";
}

/** A store over a `Disk`: `isTrusting` reads whatever parses and skips the rest, as a store without checks would. */
class DiskStore implements MessageStore {
  readonly location: string;
  private isOpen = false;

  constructor(
    readonly sessionId: string,
    private readonly disk: Disk,
    private readonly isTrusting: boolean,
  ) {
    this.location = `disk:${sessionId}`;
  }

  async open(): Promise<void> {
    this.isOpen = true;
  }

  async load(): Promise<StoredSession> {
    this.assertOpen();
    if (this.isTrusting) return this.trustingLoad();
    const corrupt = (entry: string, reason: string) => new ContextStoreCorruptError(this.location, { entry }, reason);
    if (this.disk.type !== "list") throw corrupt("key messages", `it is a ${this.disk.type}, not a list`);
    if (this.disk.count !== String(this.disk.messages.length))
      throw corrupt("counter", `it says ${JSON.stringify(this.disk.count)}, the list holds ${this.disk.messages.length}`);
    const messages = this.disk.messages.map((body, index) => {
      try {
        return parseDecodedMessage(JSON.parse(body));
      } catch (error) {
        throw corrupt(`message ${index + 1}`, (error as Error).message);
      }
    });
    const state = new Map<string, Map<string, unknown>>();
    for (const [field, text] of this.disk.state) {
      const [strategy = "", key = ""] = field.split("\u0000");
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw corrupt(`state ${strategy}/${key}`, (error as Error).message);
      }
      state.set(strategy, (state.get(strategy) ?? new Map()).set(key, value));
    }
    return { messages, state };
  }

  async append(message: Message): Promise<void> {
    this.assertOpen();
    this.disk.messages.push(JSON.stringify(message));
    this.disk.count = String(this.disk.messages.length);
  }

  async writeState(change: StateChange): Promise<void> {
    this.assertOpen();
    const field = `${change.strategy}\u0000${change.key}`;
    if ("deleted" in change) this.disk.state.delete(field);
    else this.disk.state.set(field, JSON.stringify(change.value));
  }

  async replace(messages: readonly Message[], state: StateSnapshot): Promise<void> {
    this.assertOpen();
    this.disk.messages = messages.map((message) => JSON.stringify(message));
    this.disk.count = String(messages.length);
    this.disk.state = new Map();
    for (const [strategy, values] of state)
      for (const [key, value] of values) this.disk.state.set(`${strategy}\u0000${key}`, JSON.stringify(value));
  }

  clear(state: StateSnapshot): Promise<void> {
    return this.replace([], state);
  }

  async close(): Promise<void> {
    this.isOpen = false;
  }

  /** What parses, as it parses: the flaw. */
  private trustingLoad(): StoredSession {
    const messages: Message[] = [];
    for (const body of this.disk.type === "list" ? this.disk.messages : []) {
      try {
        messages.push(parseDecodedMessage(JSON.parse(body)));
      } catch {
        // Skipped: the store trusts that whatever is left is the session.
      }
    }
    const state = new Map<string, Map<string, unknown>>();
    for (const [field, text] of this.disk.state) {
      const [strategy = "", key = ""] = field.split("\u0000");
      try {
        state.set(strategy, (state.get(strategy) ?? new Map()).set(key, JSON.parse(text)));
      } catch {
        // Skipped as well.
      }
    }
    return { messages, state };
  }

  private assertOpen(): void {
    if (!this.isOpen) throw new ContextClosedError(this.location, "closed");
  }
}

function diskSuite(isTrusting: boolean): () => HostileSuite {
  return () => {
    const disks = new Map<string, Disk>();
    const diskOf = (sessionId: string) => {
      let disk = disks.get(sessionId);
      if (disk === undefined) {
        disk = { messages: [], count: "0", state: new Map(), type: "list" };
        disks.set(sessionId, disk);
      }
      return disk;
    };
    const damage: Record<CorruptRecordKind, (disk: Disk) => void> = {
      message: (disk) => void (disk.messages[1] = '{"role":'),
      counters: (disk) => void (disk.count = "abc"),
      state: (disk) => {
        for (const field of disk.state.keys()) disk.state.set(field, '{"through":');
      },
      "key-type": (disk) => void (disk.type = "string"),
    };
    return {
      factory: (sessionId) => new DiskStore(sessionId, diskOf(sessionId), isTrusting),
      options: {
        corruptRecords: {
          kinds: ["message", "counters", "state", "key-type"],
          corrupt: async (sessionId, kind) => damage[kind](diskOf(sessionId)),
        },
      },
    };
  };
}

export const healthyDiskStores = diskSuite(false);
/** Reads whatever parses and skips the rest: a corrupt record opens as a shorter, silently different session. */
export const trustsCorruptRecords = diskSuite(true);

/** The secret the credential stores are given. */
const SECRET = "s3cret-pass-9f2c";

/**
 * A store that fails to connect as a Redis driver does: the driver's error carries the command it sent,
 * `AUTH default <password>`, and printing the error prints it.
 */
function credentialSuite(keepsDriverError: boolean): () => HostileSuite {
  return () => {
    const failing = (sessionId: string, reason: string): MessageStore => {
      const location = `fake:127.0.0.1:6390#${sessionId}`;
      const driverError = Object.assign(new Error(reason), { command: { name: "hello", args: ["3", "AUTH", "default", SECRET] } });
      const cause = keepsDriverError ? driverError : redactCredentials(driverError, [SECRET]);
      const refused = () => Promise.reject(new ContextStoreUnavailableError(location, { cause }));
      return {
        sessionId,
        location,
        open: refused,
        load: refused,
        append: refused,
        writeState: refused,
        replace: refused,
        clear: refused,
        close: () => Promise.resolve(),
      };
    };
    return {
      factory: (sessionId) => failing(sessionId, "never opened"),
      options: {
        credentials: {
          secret: SECRET,
          badAuth: async (sessionId) => ({
            store: failing(sessionId, "WRONGPASS invalid username-password pair"),
            dispose: async () => {},
          }),
          unreachable: async (sessionId) => ({ store: failing(sessionId, "connect ECONNREFUSED 127.0.0.1:6390"), dispose: async () => {} }),
        },
      },
    };
  };
}

export const healthyCredentialStores = credentialSuite(false);
/** Keeps the driver's error, AUTH arguments and all, as its error's cause. */
export const keepsTheSecretInTheCause = credentialSuite(true);

/** How long the freezable store's close() waits for pending writes before it gives up on them. */
const CLOSE_TIMEOUT_MS = 50;

/** Raised by the healthy freezable store's close() when it gave up on writes, as PostgreSQL's store does. */
class CloseTimeoutError extends ContextError {
  constructor(location: string) {
    super("CONTEXT_CLOSE_TIMEOUT", `Closing ${location} took over ${CLOSE_TIMEOUT_MS} ms; its pending writes were given up.`);
  }
}

/**
 * A store whose writes, once its network is frozen, never get an answer. Healthy, close() waits for them
 * at most `CLOSE_TIMEOUT_MS`, then fails them and rejects with CONTEXT_CLOSE_TIMEOUT; with the flaw, it
 * waits for them for as long as the network stays frozen.
 */
function freezableSuite(flaw: "none" | "close-waits" | "no-begin-close"): () => HostileSuite {
  const closeWaitsForever = flaw === "close-waits";
  return () => {
    const frozenStore = (sessionId: string) => {
      const location = `frozen:${sessionId}`;
      const messages: Message[] = [];
      let isFrozen = false;
      let isClosed = false;
      const pending = new Set<{ readonly done: Promise<void>; fail(error: Error): void }>();
      const write = (apply: () => void): Promise<void> => {
        if (isClosed) return Promise.reject(new ContextClosedError(location, "closed"));
        if (!isFrozen) return Promise.resolve(apply());
        let fail: (error: Error) => void = () => {};
        const done = new Promise<void>((_, reject) => (fail = reject));
        const entry = { done, fail };
        pending.add(entry);
        return done.finally(() => pending.delete(entry));
      };
      const store: MessageStore = {
        sessionId,
        location,
        open: async () => {},
        load: async () => ({ messages: messages.slice(), state: new Map() }),
        append: (message) => write(() => void messages.push(message)),
        writeState: (_change) => write(() => {}),
        replace: (_messages, _state) => write(() => {}),
        clear: (_state) => write(() => {}),
        // Healthy, the close bound starts when a manager's close() begins; with the flaw there is none.
        ...(flaw !== "none"
          ? {}
          : {
              beginClose: () =>
                void setTimeout(() => {
                  for (const entry of pending)
                    entry.fail(new ContextStoreUnavailableError(location, { cause: new Error("given up at close()") }));
                }, CLOSE_TIMEOUT_MS),
            }),
        close: async () => {
          isClosed = true;
          const waiting = [...pending].map((entry) => entry.done.catch(() => {}));
          if (closeWaitsForever || waiting.length === 0) {
            await Promise.all(waiting);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS));
          if (pending.size === 0) return;
          for (const entry of pending) entry.fail(new ContextStoreUnavailableError(location, { cause: new Error("given up at close()") }));
          throw new CloseTimeoutError(location);
        },
      };
      return {
        store,
        freeze: () => void (isFrozen = true),
        // The network comes back when the check is done: nothing stays pending after it.
        dispose: async () => {
          for (const entry of pending) entry.fail(new ContextStoreUnavailableError(location, { cause: new Error("disposed") }));
        },
      };
    };
    return {
      factory: (sessionId) => frozenStore(sessionId).store,
      options: {
        frozenNetwork: async (sessionId) => frozenStore(sessionId),
        closeBound: { timeoutMs: CLOSE_TIMEOUT_MS, errorCode: "CONTEXT_CLOSE_TIMEOUT" },
      },
    };
  };
}

export const healthyFreezableStores = freezableSuite("none");
/** close() waits for every pending write, and on a frozen network none ever answers. */
export const closeWaitsForAFrozenNetwork = freezableSuite("close-waits");
/**
 * Its own close() keeps the bound, but it has no `beginClose`: a manager's close(), which first waits for
 * the calls made before it, waits for a write frozen in flight for as long as the network stays frozen.
 */
export const startsItsCloseBoundLate = freezableSuite("no-begin-close");
