// What a request sends: the view without ctxkit's `metadata`, which no provider accepts.
import type { Message } from "./message.js";

// One clean copy per stored message, so repeated views reuse the same objects and a prefix stays identical.
const cleanCopies = new WeakMap<Message, Message>();

/** The message as a provider takes it: the same object when it has no `metadata`, else a frozen copy without it. */
export function toProviderMessage(message: Message): Message {
  if (message.metadata === undefined) return message;
  let clean = cleanCopies.get(message);
  if (clean === undefined) {
    const { metadata: _metadata, ...rest } = message;
    clean = Object.freeze(rest) as Message;
    cleanCopies.set(message, clean);
  }
  return clean;
}

/**
 * A view ready for any OpenAI-compatible endpoint: `metadata` (pins, ctxkit's markers, the caller's own
 * keys) is left out, since those endpoints reject unknown message keys. Every adapter sends through it.
 */
export function toProviderMessages(messages: readonly Message[]): Message[] {
  return messages.map(toProviderMessage);
}
