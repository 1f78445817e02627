// The simplest MessageStore: one session's messages and strategy state, in this process's memory.
import { ContextClosedError, ContextHistoryConflictError } from "../errors.js";
import type { Message } from "../messages/message.js";
import type { MessageStore, ReplaceExpectation, StateChange, StateSnapshot, StoredSession } from "./message-store.js";

let nextSession = 0;

/**
 * Keeps what it is given in memory: nothing survives the process. Reopening the same instance after
 * `close()` gives back what it held, as a restart of a durable store would.
 */
export class MemoryMessageStore implements MessageStore {
  readonly sessionId: string;
  readonly location: string;
  private messages: Message[] = [];
  private state = new Map<string, Map<string, unknown>>();
  private isOpen = false;
  /** When the newest message was appended; unknown after a `replace` or `clear`. */
  private lastAddedAt: number | undefined;

  constructor(sessionId = `memory-${(nextSession += 1)}`) {
    this.sessionId = sessionId;
    this.location = `memory:${sessionId}`;
  }

  open(): Promise<void> {
    this.isOpen = true;
    return Promise.resolve();
  }

  load(): Promise<StoredSession> {
    return this.whenOpen(() => ({
      messages: this.messages.slice(),
      state: copyState(this.state),
      ...(this.lastAddedAt === undefined ? {} : { lastAddedAt: this.lastAddedAt }),
    }));
  }

  append(message: Message): Promise<void> {
    return this.whenOpen(() => {
      this.messages.push(message);
      this.lastAddedAt = Date.now();
    });
  }

  writeState(change: StateChange): Promise<void> {
    return this.whenOpen(() => {
      let values = this.state.get(change.strategy);
      if (values === undefined) {
        values = new Map();
        this.state.set(change.strategy, values);
      }
      if ("deleted" in change) values.delete(change.key);
      else values.set(change.key, change.value);
    });
  }

  replace(messages: readonly Message[], state: StateSnapshot, expected?: ReplaceExpectation): Promise<void> {
    return this.whenOpen(() => {
      // One writer, whose writes apply in call order: the history now is the one a write called next sees.
      if (expected !== undefined && expected.length !== this.messages.length)
        throw new ContextHistoryConflictError(this.location, expected.length);
      this.messages = messages.slice();
      this.state = copyState(state);
      this.lastAddedAt = undefined;
    });
  }

  clear(state: StateSnapshot): Promise<void> {
    return this.replace([], state);
  }

  close(): Promise<void> {
    this.isOpen = false;
    return Promise.resolve();
  }

  private whenOpen<T>(operation: () => T): Promise<T> {
    if (!this.isOpen) return Promise.reject(new ContextClosedError(this.location, "closed"));
    try {
      return Promise.resolve(operation());
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function copyState(state: StateSnapshot): Map<string, Map<string, unknown>> {
  return new Map([...state].map(([strategy, values]) => [strategy, new Map(values)]));
}
