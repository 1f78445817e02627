// Strategy state that several writers share, with the compare-and-set a shared message store (PostgreSQL, Redis) gives it:
// the strategy suite applies two instances over it at once, and a strategy's own tests can race its writers on it.
import { ContextStateConflictError } from "@ctxkit/core";
import type { StrategyStateStore } from "@ctxkit/core/kit";

export interface SharedStateWriter extends StrategyStateStore {
  /** Takes in what the other writers stored, as the engine's sync before each read does. */
  sync(): void;
}

/**
 * One session's state, stored once, and a writer per worker. Like the engine over a shared store, a writer
 * reads from its own copy, taken at its last sync; a set or delete changes the copy at once, and is stored
 * only over the version of the key the writer last synced or wrote. Otherwise it rejects with
 * `ContextStateConflictError` and stores nothing.
 */
export function createSharedStrategyState(strategy = "strategy") {
  const stored = new Map<string, { value: unknown; version: number }>();
  let nextVersion = 1;

  function writer(): SharedStateWriter {
    let values = new Map<string, unknown>();
    let versions = new Map<string, number>();
    const write = (key: string, change: () => void): Promise<void> => {
      if (stored.get(key)?.version !== versions.get(key)) return Promise.reject(new ContextStateConflictError(strategy, key));
      change();
      const version = stored.get(key)?.version;
      if (version === undefined) versions.delete(key);
      else versions.set(key, version);
      return Promise.resolve();
    };
    const shared: SharedStateWriter = {
      get: <T = unknown>(key: string) => values.get(key) as T | undefined,
      keys: () => [...values.keys()],
      set(key, value) {
        values.set(key, value);
        return write(key, () => stored.set(key, { value: structuredClone(value), version: nextVersion++ }));
      },
      delete(key) {
        values.delete(key);
        return write(key, () => stored.delete(key));
      },
      sync() {
        values = new Map([...stored].map(([key, { value }]) => [key, structuredClone(value)]));
        versions = new Map([...stored].map(([key, { version }]) => [key, version]));
      },
    };
    shared.sync();
    return shared;
  }

  return { writer };
}
