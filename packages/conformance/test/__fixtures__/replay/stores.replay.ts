// The store suite on in-memory stores: a healthy one, and others each broken in one way its hooks reveal.
import {
  ContextClosedError,
  ContextError,
  ContextHistoryConflictError,
  ContextStateConflictError,
  ContextStoreCorruptError,
  type Message,
} from "@ctxkit/core";
import type { MessageStore, ReplaceExpectation } from "@ctxkit/core/kit";
import type { StateChange, StateSnapshot, StoredSession, StoreUpdate } from "@ctxkit/core/kit";
import { type CorruptRecordKind, describeMessageStore } from "../../../src/vitest.js";

type Flaw = "none" | "repairs-corruption" | "replaces-in-place" | "swallows-conflict" | "hangs-on-close";

interface Stored {
  messages: Message[];
  state: Map<string, Map<string, unknown>>;
  /** The version of each state key, by `strategy/key`, bumped by every write. */
  versions: Map<string, number>;
  isCorrupt: boolean;
  isStateCorrupt: boolean;
  /** The kind of record the corruptRecords hook damaged, which every read then reports. */
  damaged?: CorruptRecordKind;
  /** Bumped by every replace: a conditional replace checks it is still the one its store last saw. */
  generation: number;
}

/** How this store reaches its data: normally, over a network a test froze, or at a server that never answers. */
type Link = "up" | "frozen" | "silent";

/** How long the healthy store waits for its backend before giving up with a typed error. */
const BOUND_MS = 100;

class UnavailableError extends ContextError {
  constructor(location: string) {
    super("CONTEXT_STORE_UNAVAILABLE" as never, `${location} did not answer within ${BOUND_MS} ms`);
  }
}

class CorruptSessionError extends ContextStoreCorruptError {
  constructor(location: string, entry = "session") {
    super(location, { entry }, "damaged by a test hook");
  }
}

/** Thrown by a write the crash hook interrupts, as a killed process would stop mid-way. */
class Crash extends Error {}

const copyState = (state: StateSnapshot) => new Map([...state].map(([strategy, values]) => [strategy, new Map(values)]));

const versionKey = (strategy: string, key: string) => `${strategy}/${key}`;

class SharedStore implements MessageStore {
  readonly location: string;
  /** Writes left before the crash hook stops this store; unlimited when undefined. */
  writesBeforeCrash: number | undefined;
  link: Link = "up";
  private isOpen = false;
  private isConnected = false;
  /** The state versions this store last loaded, synced or wrote. */
  private seen = new Map<string, number>();
  private seenMessages = 0;
  private seenGeneration = 0;

  constructor(
    readonly sessionId: string,
    private readonly sessions: Map<string, Stored>,
    private readonly flaw: Flaw,
  ) {
    this.location = `shared:${sessionId}`;
  }

  private get data(): Stored {
    let data = this.sessions.get(this.sessionId);
    if (data === undefined)
      this.sessions.set(
        this.sessionId,
        (data = { messages: [], state: new Map(), versions: new Map(), isCorrupt: false, isStateCorrupt: false, generation: 0 }),
      );
    return data;
  }

  /** A round trip to the backend: none comes back over a frozen link or from a silent server, so it gives up after the bound. */
  private async reach(): Promise<void> {
    if (this.link === "up") return;
    await new Promise((resolve) => setTimeout(resolve, BOUND_MS));
    throw new UnavailableError(this.location);
  }

  async open(): Promise<void> {
    await this.reach();
    this.isOpen = true;
    this.isConnected = true;
  }

  async load(): Promise<StoredSession> {
    if (this.data.damaged !== undefined) throw new CorruptSessionError(this.location, `${this.data.damaged} record`);
    if (this.data.isStateCorrupt) throw new CorruptSessionError(this.location);
    if (this.data.isCorrupt) {
      if (this.flaw !== "repairs-corruption") throw new CorruptSessionError(this.location);
      // The flaw: the damaged record is dropped without a word, and the session opens.
      this.data.messages.splice(1, 1);
      this.data.isCorrupt = false;
    }
    this.seen = new Map(this.data.versions);
    this.seenMessages = this.data.messages.length;
    this.seenGeneration = this.data.generation;
    return { messages: this.data.messages.slice(), state: copyState(this.data.state) };
  }

  async sync(): Promise<StoreUpdate> {
    await this.reach();
    if (this.data.damaged !== undefined) throw new CorruptSessionError(this.location, `${this.data.damaged} record`);
    const messages = this.data.messages.slice(this.seenMessages);
    this.seenMessages = this.data.messages.length;
    this.seen = new Map(this.data.versions);
    this.seenGeneration = this.data.generation;
    return { kind: "appended", messages, state: copyState(this.data.state) };
  }

  async append(message: Message): Promise<void> {
    this.step();
    await this.reach();
    this.data.messages.push(message);
  }

  async writeState(change: StateChange): Promise<void> {
    this.step();
    await this.reach();
    const version = versionKey(change.strategy, change.key);
    if ((this.seen.get(version) ?? 0) !== (this.data.versions.get(version) ?? 0)) {
      // The flaw: the other writer's value stands, and this write resolves as if it were stored.
      if (this.flaw === "swallows-conflict") return;
      throw new ContextStateConflictError(change.strategy, change.key);
    }
    const next = (this.data.versions.get(version) ?? 0) + 1;
    this.data.versions.set(version, next);
    this.seen.set(version, next);
    const values = this.data.state.get(change.strategy) ?? new Map<string, unknown>();
    this.data.state.set(change.strategy, values);
    if ("deleted" in change) values.delete(change.key);
    else values.set(change.key, change.value);
  }

  async replace(messages: readonly Message[], state: StateSnapshot, expected?: ReplaceExpectation): Promise<void> {
    if (expected !== undefined && (this.data.generation !== this.seenGeneration || this.data.messages.length !== expected.length))
      throw new ContextHistoryConflictError(this.location, expected.length);
    const generation = this.data.generation + 1;
    this.seenGeneration = generation;
    if (this.flaw === "replaces-in-place") {
      // The flaw: the old content goes first, then the new arrives one write at a time.
      this.data.generation = generation;
      this.data.messages = [];
      this.data.state = new Map();
      for (const message of messages) await this.append(message);
      for (const [strategy, values] of state) for (const [key, value] of values) await this.writeState({ strategy, key, value });
      return;
    }
    const staged = {
      messages: messages.slice(),
      state: copyState(state),
      versions: new Map(),
      isCorrupt: false,
      isStateCorrupt: false,
      generation,
    };
    for (let index = 0; index < messages.length; index += 1) this.step();
    this.sessions.set(this.sessionId, staged);
  }

  clear(state: StateSnapshot): Promise<void> {
    return this.replace([], state);
  }

  async close(): Promise<void> {
    this.isOpen = false;
    if (!this.isConnected) return;
    this.isConnected = false;
    // The flaw: it waits for the backend's goodbye, which a frozen network never delivers.
    if (this.flaw === "hangs-on-close" && this.link !== "up") await new Promise(() => {});
    await this.reach().catch(() => {});
  }

  private step(): void {
    if (!this.isOpen) throw new ContextClosedError(this.location, "closed");
    if (this.writesBeforeCrash === undefined) return;
    if (this.writesBeforeCrash === 0) throw new Crash("killed");
    this.writesBeforeCrash -= 1;
  }
}

for (const flaw of ["none", "repairs-corruption", "replaces-in-place", "swallows-conflict", "hangs-on-close"] as const) {
  const sessions = new Map<string, Stored>();
  const withLink = (sessionId: string, link: Link) => {
    const store = new SharedStore(sessionId, sessions, flaw);
    return { store, freeze: () => void (store.link = link), dispose: async () => {} };
  };
  describeMessageStore(`store-${flaw}`, (sessionId) => new SharedStore(sessionId, sessions, flaw), {
    faultGuardMs: 3_000,
    frozenNetwork: async (sessionId) => withLink(sessionId, "frozen"),
    silentServer: async (sessionId) => {
      const faulty = withLink(sessionId, "silent");
      faulty.freeze();
      return faulty;
    },
    corruptState: async (sessionId) => void (sessions.get(sessionId)!.isStateCorrupt = true),
    concurrentStateWriters: true,
    corrupt: async (sessionId) => void (sessions.get(sessionId)!.isCorrupt = true),
    // The hostile checks' hooks go to the healthy store alone: each broken store here fails only the check of
    // its own flaw (the detection test has a broken store for each hostile check).
    ...(flaw !== "none"
      ? {}
      : {
          corruptRecords: {
            kinds: ["message", "counters", "state", "key-type"] as const,
            corrupt: async (sessionId: string, kind: CorruptRecordKind) => void (sessions.get(sessionId)!.damaged = kind),
          },
          credentials: {
            secret: "replay-secret",
            unreachable: async (sessionId: string) => {
              const faulty = withLink(sessionId, "silent");
              faulty.freeze();
              return faulty;
            },
            frozen: async (sessionId: string) => withLink(sessionId, "frozen"),
          },
          closeBound: { timeoutMs: BOUND_MS },
        }),
    crashDuringReplace: async (sessionId, messages, state) => {
      const store = new SharedStore(sessionId, sessions, flaw);
      await store.open();
      await store.load();
      store.writesBeforeCrash = Math.floor(messages.length / 2);
      await store.replace(messages, state).catch((error: unknown) => {
        if (!(error instanceof Crash)) throw error;
      });
    },
  });
}
