// A ContextManager for orchestrator tests: keeps every message, compacts nothing, records every call.
import type { Message } from "../messages/message.js";
import { parseMessage, parseMessages } from "../messages/parse-message.js";
import type { ContextManager } from "../protocol.js";

type ManagerMethod = keyof ContextManager;

/** One recorded call, with the arguments exactly as the caller passed them. */
export type MockContextManagerCall = {
  [Method in ManagerMethod]: { method: Method; args: Parameters<ContextManager[Method]> };
}[ManagerMethod];

export class MockContextManager implements ContextManager {
  /** Every call in order, including rejected ones, so a test can assert what the orchestrator did. */
  readonly calls: MockContextManagerCall[] = [];
  #messages: Message[];

  constructor(initialMessages: readonly Message[] = []) {
    this.#messages = parseMessages(initialMessages);
  }

  /** The stored history (validated, frozen copies). */
  get messages(): readonly Message[] {
    return [...this.#messages];
  }

  async addMessage(message: Message): Promise<void> {
    this.calls.push({ method: "addMessage", args: [message] });
    this.#messages.push(parseMessage(message));
  }

  /** Returns the whole history: the mock has no budget and never compacts. */
  async getMessagesForRequest(...args: Parameters<ContextManager["getMessagesForRequest"]>): Promise<Message[]> {
    this.calls.push({ method: "getMessagesForRequest", args });
    return [...this.#messages];
  }

  async getMessages(): Promise<Message[]> {
    this.calls.push({ method: "getMessages", args: [] });
    return [...this.#messages];
  }

  async setMessages(messages: Message[]): Promise<void> {
    this.calls.push({ method: "setMessages", args: [messages] });
    this.#messages = parseMessages(messages);
  }

  async clear(): Promise<void> {
    this.calls.push({ method: "clear", args: [] });
    this.#messages = [];
  }
}
