// Opens a persistent session in a test folder, recording every event it emits.
import type { ContextEventMap, ContextEventName } from "@ctxkit/core";
import type { PersistentContextConfig } from "../src/config-schema.js";
import { createPersistentContext } from "../src/create-persistent-context.js";

export type RecordedEvent = { event: ContextEventName; payload: ContextEventMap[ContextEventName] };

export async function openSession(storagePath: string, config: Partial<PersistentContextConfig> = {}) {
  const events: RecordedEvent[] = [];
  const manager = await createPersistentContext({
    storagePath,
    sessionId: "session",
    tokenizer: "estimate",
    ...config,
    onEvent: (event, payload) => void events.push({ event, payload }),
  });
  return { manager, events };
}
