// An OpenAI Agents JS session whose memory is a ctxkit context manager: the agent sees the view, the history stays whole.
import {
  ContextError,
  ContextHistoryConflictError,
  type ContextManager,
  canReplaceConditionally,
  type Message,
  type RequestOptions,
} from "@ctxkit/core";
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

/**
 * How many times `popItem` reads the history again when another writer changed it between the read and
 * the edit, before it gives up with `ContextHistoryConflictError`.
 */
const POP_ITEM_ATTEMPTS = 5;

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
 * On a manager with `replaceMessages` (every ctxkit manager), the removal applies only over the history it
 * read, so on a shared session (PostgreSQL, Redis) it never deletes a message another worker added meanwhile:
 * it reads again and pops the real last item, or after 5 tries rejects with
 * `ContextHistoryConflictError`, having changed nothing.
 */
export class CtxkitSession implements AgentsSession {
  readonly #manager: ContextManager;
  readonly #sessionId: string;
  readonly #requestOptions: CtxkitSessionOptions["requestOptions"];

  constructor(options: CtxkitSessionOptions) {
    this.#manager = options.manager;
    this.#sessionId = options.sessionId ?? globalThis.crypto.randomUUID();
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
    const manager = this.#manager;
    if (!canReplaceConditionally(manager)) return this.#popUnconditionally();
    for (let attempt = 1; ; attempt += 1) {
      const history = await manager.getMessages();
      const popped = popLastItem(history);
      if (popped === undefined) return undefined;
      try {
        await manager.replaceMessages(history, popped.rest);
        return popped.item;
      } catch (error) {
        if (!(error instanceof ContextHistoryConflictError) || attempt >= POP_ITEM_ATTEMPTS) throw error;
      }
      // Workers that collided fall out of step before they read again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** attempt));
    }
  }

  /** For a manager without a conditional edit (one written elsewhere): right for one writer only. */
  async #popUnconditionally(): Promise<AgentInputItem | undefined> {
    const history = await this.#manager.getMessages();
    const popped = popLastItem(history);
    if (popped === undefined) return undefined;
    await this.#manager.setMessages(popped.rest);
    if ((await this.#manager.getMessages()).length !== popped.rest.length) throw new SessionPopError();
    return popped.item;
  }

  async clearSession(): Promise<void> {
    await this.#manager.clear();
  }
}

/** The history without its last item: one message may hold several items (reasoning, text, calls), and those before the last stay. */
function popLastItem(history: readonly Message[]): { readonly item: AgentInputItem | undefined; readonly rest: Message[] } | undefined {
  const last = history.at(-1);
  if (last === undefined) return undefined;
  const items = toAgentInputItems([last]);
  return { item: items.at(-1), rest: [...history.slice(0, -1), ...fromAgentInputItems(items.slice(0, -1))] };
}
