// Wraps a store and counts the calls that reach it, to show which operations touch storage.
import type { MessageStore } from "../src/message-store.js";

export type StoreMethod = "open" | "load" | "append" | "writeState" | "replace" | "clear" | "close";

export function countingStore(store: MessageStore): MessageStore & { calls: Record<StoreMethod, number>; total(): number } {
  const calls: Record<StoreMethod, number> = { open: 0, load: 0, append: 0, writeState: 0, replace: 0, clear: 0, close: 0 };
  const count =
    <Arguments extends unknown[], Result>(method: StoreMethod, call: (...args: Arguments) => Result) =>
    (...args: Arguments): Result => {
      calls[method] += 1;
      return call(...args);
    };
  return {
    sessionId: store.sessionId,
    location: store.location,
    calls,
    total: () => Object.values(calls).reduce((sum, value) => sum + value, 0),
    open: count("open", () => store.open()),
    load: count("load", () => store.load()),
    append: count("append", (message) => store.append(message)),
    writeState: count("writeState", (change) => store.writeState(change)),
    replace: count("replace", (messages, state) => store.replace(messages, state)),
    clear: count("clear", (state) => store.clear(state)),
    close: count("close", () => store.close()),
  };
}
