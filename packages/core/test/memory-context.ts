// Test-only: core's manager over a MemoryMessageStore, built the one public way (`createContextManager`).
import type { ContextEventMap, ContextEventName } from "../src/events.js";
import type { Message } from "../src/messages/message.js";
import { userMessage } from "../src/testing/message-builders.js";
import type { TokenCounter } from "../src/tokens/token-counter.js";
import type { ContextConfig } from "../src/engine/context-config.js";
import type { ContextEngine } from "../src/engine/context-engine.js";
import { createContextManager } from "../src/engine/create-context-manager.js";
import { MemoryMessageStore } from "../src/store/memory-message-store.js";

/** A manager over a fresh in-memory store, opened. A bad `config` rejects with `ContextConfigError`. */
export function memoryContext(config: ContextConfig = {}): Promise<ContextEngine> {
  const { onEvent, ...rest } = config;
  return createContextManager({ store: new MemoryMessageStore(), ...rest, ...(onEvent === undefined ? {} : { onEvent }) });
}

export const pinned = (content: string): Message => ({ ...userMessage(content), metadata: { pinned: true } });

export type Recorded = { [E in ContextEventName]: { event: E; payload: ContextEventMap[E] } }[ContextEventName];

export async function managerWithEvents(config: ContextConfig = {}) {
  const events: Recorded[] = [];
  const manager = await memoryContext({
    tokenizer: "estimate",
    ...config,
    onEvent: (event, payload) => {
      events.push({ event, payload } as Recorded);
    },
  });
  const count = (name: ContextEventName) => events.filter((recorded) => recorded.event === name).length;
  return { manager, events, count };
}

export async function addAll(manager: { addMessage(message: Message): Promise<void> }, messages: readonly Message[]) {
  for (const message of messages) await manager.addMessage(message);
}

/** A counter that records every text it is asked to count. */
export function spyCounter(): TokenCounter & { calls: string[] } {
  const calls: string[] = [];
  return { name: "spy", calls, count: (text) => (calls.push(text), Math.ceil(text.length / 4)) };
}
