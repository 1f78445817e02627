// Pins made through the manager: history indices kept in strategy state, so the stored messages stay as they were written.
import type { StrategyStateStore, ViewEntry } from "../pipeline/strategy.js";

/** The state namespace pins are kept under; no strategy can have this name (a built-in or module strategy has no parentheses). */
export const PIN_STATE = "(pins)";
const KEY = "indices";

export class PinSet {
  private indices: ReadonlySet<number> = new Set();

  constructor(private readonly state: StrategyStateStore) {}

  /** Reads the pins again from state: at open, and after another writer changed it. */
  reload(): void {
    const stored = this.state.get<unknown>(KEY);
    this.indices = new Set(Array.isArray(stored) ? stored.filter((index): index is number => Number.isInteger(index) && index >= 0) : []);
  }

  get size(): number {
    return this.indices.size;
  }

  has(index: number): boolean {
    return this.indices.has(index);
  }

  list(): number[] {
    return [...this.indices].sort((first, second) => first - second);
  }

  /** Adds or removes `index`; resolves once the change is recorded in the store. */
  async set(index: number, isPinned: boolean): Promise<void> {
    if (this.indices.has(index) === isPinned) return;
    const next = new Set(this.indices);
    if (isPinned) next.add(index);
    else next.delete(index);
    this.indices = next;
    await (next.size === 0 ? this.state.delete(KEY) : this.state.set(KEY, this.list()));
  }

  /** Removes every pin; resolves once that is recorded. */
  async clear(): Promise<void> {
    if (this.indices.size === 0) return;
    this.indices = new Set();
    await this.state.delete(KEY);
  }

  /** `entry` marked as this pin set says, the same object when nothing changes. */
  mark(entry: ViewEntry): ViewEntry {
    if (entry.source.kind !== "history") return entry;
    const isPinned = this.indices.has(entry.source.index);
    if (isPinned === (entry.pinned === true)) return entry;
    const { pinned: _pinned, ...rest } = entry;
    return Object.freeze(isPinned ? { ...rest, pinned: true as const } : rest);
  }
}
