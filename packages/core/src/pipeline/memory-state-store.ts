// The in-memory strategy state store: what non-persistent managers and tests hand to strategies.
import type { StrategyStateStore } from "./strategy.js";

export interface MemoryStateStore extends StrategyStateStore {
  /** A plain copy of every key, e.g. for a persistent manager to write out. */
  snapshot(): Record<string, unknown>;
}

/**
 * Values are kept as given, not cloned: a strategy owns its state, and persistent stores serialize it
 * anyway. A Map, not an object, so keys such as `__proto__` or `toString` are ordinary keys.
 */
export function createMemoryStateStore(initial: Record<string, unknown> = {}): MemoryStateStore {
  const values = new Map<string, unknown>(Object.entries(initial));
  return {
    get<T = unknown>(key: string): T | undefined {
      return values.get(key) as T | undefined;
    },
    keys(): string[] {
      return [...values.keys()];
    },
    async set(key: string, value: unknown): Promise<void> {
      values.set(key, value);
    },
    async delete(key: string): Promise<void> {
      values.delete(key);
    },
    snapshot(): Record<string, unknown> {
      return Object.fromEntries(values);
    },
  };
}
