// A context module whose sessions outlive their manager (kept in this process, by session id), with
// optional flaws a restart reveals. Only the restart property can tell it from a healthy one.
import { ContextClosedError, type Coordinator, type Message } from "@ctxkit/core";
import {
  ContextEngine,
  type MessageStore,
  mountContextManager,
  type StateChange,
  type StateSnapshot,
  type StoredSession,
  type Strategy,
} from "@ctxkit/core/kit";
import { z } from "zod";
import { createSummaryStrategy } from "../../../strategy-summary/src/summary-strategy.js";
import type { SessionSettings } from "../../src/subject/session-settings.js";

export type RestartFlaw = "none" | "drops-last-message" | "forgets-state";

interface StoredData {
  messages: Message[];
  state: Map<string, Map<string, unknown>>;
}

const copyState = (state: StateSnapshot) => new Map([...state].map(([strategy, values]) => [strategy, new Map(values)]));

/** A store over a shared map: what one instance wrote, the next instance on that session loads. */
class SharedMapStore implements MessageStore {
  readonly location: string;
  private isOpen = false;

  constructor(
    readonly sessionId: string,
    private readonly sessions: Map<string, StoredData>,
    private readonly flaw: RestartFlaw,
  ) {
    this.location = `shared-map:${sessionId}`;
  }

  private get data(): StoredData {
    let data = this.sessions.get(this.sessionId);
    if (data === undefined) this.sessions.set(this.sessionId, (data = { messages: [], state: new Map() }));
    return data;
  }

  async open(): Promise<void> {
    this.isOpen = true;
  }

  async load(): Promise<StoredSession> {
    const { messages, state } = this.data;
    if (this.flaw === "drops-last-message") return { messages: messages.slice(0, -1), state: copyState(state) };
    if (this.flaw === "forgets-state") return { messages: messages.slice(), state: new Map() };
    return { messages: messages.slice(), state: copyState(state) };
  }

  async append(message: Message): Promise<void> {
    this.refuseWhenClosed();
    this.data.messages.push(message);
  }

  async writeState(change: StateChange): Promise<void> {
    this.refuseWhenClosed();
    const values = this.data.state.get(change.strategy) ?? new Map<string, unknown>();
    this.data.state.set(change.strategy, values);
    if ("deleted" in change) values.delete(change.key);
    else values.set(change.key, change.value);
  }

  async replace(messages: readonly Message[], state: StateSnapshot): Promise<void> {
    this.refuseWhenClosed();
    this.sessions.set(this.sessionId, { messages: messages.slice(), state: copyState(state) });
  }

  clear(state: StateSnapshot): Promise<void> {
    return this.replace([], state);
  }

  async close(): Promise<void> {
    this.isOpen = false;
  }

  private refuseWhenClosed(): void {
    if (!this.isOpen) throw new ContextClosedError(this.location, "closed");
  }
}

/** A module whose config names the session; `withSummary` adds a summary strategy on the kit's summarizer. */
export function createRestartableModule(name: string, flaw: RestartFlaw) {
  const sessions = new Map<string, StoredData>();
  return {
    meta: { type: "context" as const, name },
    configSchema: z.strictObject({ sessionId: z.string(), strategies: z.array(z.unknown()).optional() }),
    mount(coordinator: Coordinator, config: { sessionId: string; strategies?: Array<string | Strategy> }) {
      const engine = new ContextEngine(
        new SharedMapStore(config.sessionId, sessions, flaw),
        config.strategies === undefined ? {} : { strategies: config.strategies as never },
      );
      return mountContextManager(coordinator, name, engine);
    },
  };
}

/** The config the kit mounts each instance with: its session, and a summary strategy on the kit's summarizer. */
export const restartableConfig = ({ sessionId, summarizer }: SessionSettings) => ({
  sessionId,
  strategies: ["clear-tool-results", createSummaryStrategy({ summarizer }), "truncate"],
});
