// Whether a caller's copy of the history is the history a manager holds: the check before an edit made on the caller's behalf.
import type { Message } from "../messages/message.js";

/**
 * True when `expected` holds the same messages as `history`, in order. A copy from `getMessages()` shares
 * the history's frozen objects, so this is one identity check per message; a message another writer's
 * replace brought back in an equal form (a reload) compares by its JSON.
 */
export function isSameHistory(history: readonly Message[], expected: readonly Message[]): boolean {
  if (history.length !== expected.length) return false;
  for (let index = 0; index < history.length; index += 1) {
    const held = history[index];
    const read = expected[index];
    if (held !== read && JSON.stringify(held) !== JSON.stringify(read)) return false;
  }
  return true;
}
