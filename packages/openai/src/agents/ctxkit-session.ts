// An OpenAI Agents JS session whose memory is a ctxkit context manager: the agent sees the view, the history stays whole.
import { randomUUID } from "node:crypto";
import { ContextError, type ContextManager, type RequestOptions } from "@ctxkit/core";
import type { AgentInputItem, AgentsSession } from "./agent-input-item.js";
import { fromAgentInputItems, toAgentInputItems } from "./agent-items.js";
import { lastWholeItems } from "./last-whole-items.js";

export interface CtxkitSessionOptions {
  /** The manager that keeps the session's history and builds its views. */
  readonly manager: ContextManager;
  /** Defaults to a random UUID. */
  readonly sessionId?: string;
  /** Options of each view (a `provider`, a `tokenBudget`), or a function giving them per call. */
  readonly requestOptions?: RequestOptions | (() => RequestOptions);
}

/** `popItem` could not remove the last message: the manager kept its history on `setMessages`. */
export class SessionPopError extends ContextError {
  constructor() {
    super(
      "CONTEXT_SESSION_POP",
      "popItem needs a manager whose setMessages replaces the history (a journal that already held records keeps them): use a fresh session or an in-memory manager",
    );
  }
}

/**
 * `Session` for `run(agent, input, { session })`. `getItems` returns the manager's view (fitting the budget,
 * tool pairs whole, `metadata` left out) as agent items; `getItems(limit)` gives at most the last `limit` of them,
 * dropping a tool unit at the start that the cut would split (never a result without its call); `addItems` adds to the full history, which no view
 * ever shortens. `popItem` removes the last item (an assistant turn with several items gives back its last).
 */
export class CtxkitSession implements AgentsSession {
  readonly #manager: ContextManager;
  readonly #sessionId: string;
  readonly #requestOptions: CtxkitSessionOptions["requestOptions"];

  constructor(options: CtxkitSessionOptions) {
    this.#manager = options.manager;
    this.#sessionId = options.sessionId ?? randomUUID();
    this.#requestOptions = options.requestOptions;
  }

  async getSessionId(): Promise<string> {
    return this.#sessionId;
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const requestOptions = typeof this.#requestOptions === "function" ? this.#requestOptions() : this.#requestOptions;
    const items = toAgentInputItems(await this.#manager.getMessagesForRequest(requestOptions));
    return limit === undefined ? items : lastWholeItems(items, limit);
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    for (const message of fromAgentInputItems(items)) await this.#manager.addMessage(message);
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    const history = await this.#manager.getMessages();
    const last = history.at(-1);
    if (last === undefined) return undefined;
    const rest = history.slice(0, -1);
    await this.#manager.setMessages(rest);
    if ((await this.#manager.getMessages()).length !== rest.length) throw new SessionPopError();
    const items = toAgentInputItems([last]);
    // One message may hold several items (reasoning, text, calls): the ones before the last stay.
    await this.addItems(items.slice(0, -1));
    return items.at(-1);
  }

  async clearSession(): Promise<void> {
    await this.#manager.clear();
  }
}
