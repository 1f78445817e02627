// Strategy state backed by the message store: reads from memory, writes recorded, so checkpoints survive a restart.
import { ContextArgumentError } from "../errors.js";
import { findNonJson } from "../messages/find-non-json.js";
import type { StrategyStateStore } from "../pipeline/strategy.js";
import type { StateChange, StateSnapshot } from "../store/message-store.js";

export class StoreStrategyState {
  private readonly values = new Map<string, Map<string, unknown>>();
  /** The JSON last recorded for each key, so setting a value again unchanged writes nothing. */
  private readonly recorded = new Map<string, Map<string, string>>();

  constructor(
    loaded: StateSnapshot,
    private readonly record: (change: StateChange) => Promise<void>,
  ) {
    this.load(loaded);
  }

  /** Replaces every value with `snapshot`: what the store holds after another writer changed it. */
  load(snapshot: StateSnapshot): void {
    this.values.clear();
    this.recorded.clear();
    for (const [strategy, values] of snapshot) {
      for (const [key, value] of values) this.remember(strategy, key, value, JSON.stringify(value));
    }
  }

  /** What the strategies hold now, to be written into a rewritten journal. */
  snapshot(): StateSnapshot {
    return this.values;
  }

  /** The names holding state, and the JSON last recorded for each key of one: cheap to copy before a compaction, for its undo. */
  names(): string[] {
    return [...this.recorded.keys()];
  }

  recordedOf(strategy: string): ReadonlyMap<string, string> | undefined {
    return this.recorded.get(strategy);
  }

  storeFor(strategy: string): StrategyStateStore {
    return {
      get: <T = unknown>(key: string): T | undefined => this.values.get(strategy)?.get(key) as T | undefined,
      keys: (): string[] => [...(this.values.get(strategy)?.keys() ?? [])],
      set: (key: string, value: unknown): Promise<void> => {
        const problem = value === undefined ? { path: "", problem: "undefined is not JSON; use delete()" } : findNonJson(value);
        if (problem !== undefined) {
          return Promise.reject(
            new ContextArgumentError(`the state store of strategy "${strategy}": set("${key}")`, [
              { path: problem.path === "" ? "value" : `value.${problem.path}`, message: `cannot be persisted: ${problem.problem}` },
            ]),
          );
        }
        const json = JSON.stringify(value);
        const unchanged = this.recorded.get(strategy)?.get(key) === json;
        // Kept as given, as the in-memory store does: the strategy owns the object.
        this.remember(strategy, key, value, json);
        return unchanged ? Promise.resolve() : this.record({ strategy, key, value: JSON.parse(json) as unknown });
      },
      delete: (key: string): Promise<void> => {
        if (this.values.get(strategy)?.has(key) !== true) return Promise.resolve();
        this.values.get(strategy)!.delete(key);
        this.recorded.get(strategy)!.delete(key);
        return this.record({ strategy, key, deleted: true });
      },
    };
  }

  private remember(strategy: string, key: string, value: unknown, json: string): void {
    let values = this.values.get(strategy);
    let recorded = this.recorded.get(strategy);
    if (values === undefined || recorded === undefined) {
      values = new Map();
      recorded = new Map();
      this.values.set(strategy, values);
      this.recorded.set(strategy, recorded);
    }
    values.set(key, value);
    recorded.set(key, json);
  }
}
