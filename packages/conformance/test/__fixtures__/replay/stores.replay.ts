// The store suite on three in-memory stores: a healthy one, and two each broken in one way its hooks reveal.
import { ContextClosedError, ContextError, type Message, type MessageStore } from "@ctxkit/core";
import type { StateChange, StateSnapshot, StoredSession } from "@ctxkit/core/kit";
import { describeMessageStore } from "../../../src/vitest.js";

type Flaw = "none" | "repairs-corruption" | "replaces-in-place";

interface Stored {
  messages: Message[];
  state: Map<string, Map<string, unknown>>;
  isCorrupt: boolean;
}

class CorruptSessionError extends ContextError {
  constructor(location: string) {
    super("CONTEXT_STORE_CORRUPT" as never, `${location} is corrupt`);
  }
}

/** Thrown by a write the crash hook interrupts, as a killed process would stop mid-way. */
class Crash extends Error {}

const copyState = (state: StateSnapshot) => new Map([...state].map(([strategy, values]) => [strategy, new Map(values)]));

class SharedStore implements MessageStore {
  readonly location: string;
  /** Writes left before the crash hook stops this store; unlimited when undefined. */
  writesBeforeCrash: number | undefined;
  private isOpen = false;

  constructor(
    readonly sessionId: string,
    private readonly sessions: Map<string, Stored>,
    private readonly flaw: Flaw,
  ) {
    this.location = `shared:${sessionId}`;
  }

  private get data(): Stored {
    let data = this.sessions.get(this.sessionId);
    if (data === undefined) this.sessions.set(this.sessionId, (data = { messages: [], state: new Map(), isCorrupt: false }));
    return data;
  }

  async open(): Promise<void> {
    this.isOpen = true;
  }

  async load(): Promise<StoredSession> {
    if (this.data.isCorrupt) {
      if (this.flaw !== "repairs-corruption") throw new CorruptSessionError(this.location);
      // The flaw: the damaged record is dropped without a word, and the session opens.
      this.data.messages.splice(1, 1);
      this.data.isCorrupt = false;
    }
    return { messages: this.data.messages.slice(), state: copyState(this.data.state) };
  }

  async append(message: Message): Promise<void> {
    this.step();
    this.data.messages.push(message);
  }

  async writeState(change: StateChange): Promise<void> {
    this.step();
    const values = this.data.state.get(change.strategy) ?? new Map<string, unknown>();
    this.data.state.set(change.strategy, values);
    if ("deleted" in change) values.delete(change.key);
    else values.set(change.key, change.value);
  }

  async replace(messages: readonly Message[], state: StateSnapshot): Promise<void> {
    if (this.flaw === "replaces-in-place") {
      // The flaw: the old content goes first, then the new arrives one write at a time.
      this.data.messages = [];
      this.data.state = new Map();
      for (const message of messages) await this.append(message);
      for (const [strategy, values] of state) for (const [key, value] of values) await this.writeState({ strategy, key, value });
      return;
    }
    const staged = { messages: messages.slice(), state: copyState(state), isCorrupt: false };
    for (let index = 0; index < messages.length; index += 1) this.step();
    this.sessions.set(this.sessionId, staged);
  }

  clear(state: StateSnapshot): Promise<void> {
    return this.replace([], state);
  }

  async close(): Promise<void> {
    this.isOpen = false;
  }

  private step(): void {
    if (!this.isOpen) throw new ContextClosedError(this.location, "closed");
    if (this.writesBeforeCrash === undefined) return;
    if (this.writesBeforeCrash === 0) throw new Crash("killed");
    this.writesBeforeCrash -= 1;
  }
}

for (const flaw of ["none", "repairs-corruption", "replaces-in-place"] as const) {
  const sessions = new Map<string, Stored>();
  describeMessageStore(`store-${flaw}`, (sessionId) => new SharedStore(sessionId, sessions, flaw), {
    corrupt: async (sessionId) => void (sessions.get(sessionId)!.isCorrupt = true),
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
