// A factory whose instances on one session share that session's pins (as workers over one database
// would), written atomically or, in the lossy variant, read, awaited and written back.
import type { ContextManager } from "@ctxkit/core";
import { SimpleContextManager } from "../../../context-simple/src/index.js";
import type { SessionSettings } from "../../src/index.js";

export function createSharedPinsFactory(write: "atomic" | "read-modify-write") {
  const pinsBySession = new Map<string, number[]>();
  return (settings: SessionSettings): ContextManager => {
    const inner = new SimpleContextManager();
    const read = () => pinsBySession.get(settings.sessionId) ?? [];
    return Object.assign(inner, {
      async pinMessage(index: number): Promise<number> {
        const history = await inner.getMessages();
        if (!Number.isInteger(index) || index < 0 || index >= history.length) throw new RangeError(`no message ${index}`);
        if (write === "atomic") {
          pinsBySession.set(settings.sessionId, [...new Set([...read(), index])]);
          return index;
        }
        const current = read();
        await new Promise((resolve) => setTimeout(resolve, 0));
        pinsBySession.set(settings.sessionId, [...new Set([...current, index])]);
        return index;
      },
      async unpinMessage(index: number): Promise<number> {
        pinsBySession.set(
          settings.sessionId,
          read().filter((pinned) => pinned !== index),
        );
        return index;
      },
      async pinnedMessages(): Promise<number[]> {
        return [...read()].sort((first, second) => first - second);
      },
    });
  };
}
