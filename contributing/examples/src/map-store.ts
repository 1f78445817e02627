// The smallest real MessageStore: sessions live in a Map shared by every store made with it, as on a key-value server.
import { ContextClosedError, ContextHistoryConflictError, type Message } from "@ctxkit/core";
import type { MessageStore, ReplaceExpectation, StateChange, StateSnapshot, StoredSession } from "@ctxkit/core/kit";

/** One session as the "server" keeps it. */
interface MapSession {
  messages: Message[];
  state: Map<string, Map<string, unknown>>;
}

/** The "server": every session by id. It outlives the stores, so closing one and opening another is a restart. */
export type MapServer = Map<string, MapSession>;

export class MapMessageStore implements MessageStore {
  readonly location: string;
  private isOpen = false;

  constructor(
    private readonly server: MapServer,
    readonly sessionId: string,
  ) {
    this.location = `map:${sessionId}`;
  }

  async open(): Promise<void> {
    this.isOpen = true;
  }

  async load(): Promise<StoredSession> {
    const session = this.session();
    // Copies: the manager owns what it loads, and must not reach into the server through it.
    return { messages: session.messages.slice(), state: copyState(session.state) };
  }

  async append(message: Message): Promise<void> {
    this.session().messages.push(message);
  }

  async writeState(change: StateChange): Promise<void> {
    const state = this.session().state;
    const values = state.get(change.strategy) ?? new Map<string, unknown>();
    state.set(change.strategy, values);
    if ("deleted" in change) values.delete(change.key);
    else values.set(change.key, change.value);
  }

  async replace(messages: readonly Message[], state: StateSnapshot, expected?: ReplaceExpectation): Promise<void> {
    const session = this.session();
    // An edit made for a caller applies only over the history it read; nothing changes otherwise.
    if (expected !== undefined && expected.length !== session.messages.length)
      throw new ContextHistoryConflictError(this.location, expected.length);
    // Both fields before any await: the old content or the new, never a mix (the contract's atomic replace).
    session.messages = messages.slice();
    session.state = copyState(state);
  }

  async clear(state: StateSnapshot): Promise<void> {
    await this.replace([], state);
  }

  async close(): Promise<void> {
    this.isOpen = false;
  }

  /** The session on the server, created empty on first use; refused once this store is closed. */
  private session(): MapSession {
    if (!this.isOpen) throw new ContextClosedError(this.location, "closed");
    let session = this.server.get(this.sessionId);
    if (session === undefined) this.server.set(this.sessionId, (session = { messages: [], state: new Map() }));
    return session;
  }
}

function copyState(state: StateSnapshot): Map<string, Map<string, unknown>> {
  return new Map([...state].map(([strategy, values]) => [strategy, new Map(values)]));
}
