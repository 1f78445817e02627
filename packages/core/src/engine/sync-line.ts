// What a shared store reported, applied once each and in the order it was asked for, by whichever operation needs it first.
import type { StoreUpdate } from "../store/message-store.js";

interface Entry {
  readonly update: Promise<StoreUpdate>;
  /** Set once applied: the error, when applying it failed, for the operation that asked for it. */
  outcome?: { readonly error?: unknown };
}

/**
 * Each read asks the store for its changes at call time and applies them at its turn. A state write must
 * see every change the store has already read (a compare-and-set is checked against the store's latest
 * read), so it may apply the later reads' changes early: each is still applied once, in order.
 */
export class SyncLine {
  private readonly waiting: Entry[] = [];

  constructor(private readonly apply: (update: StoreUpdate) => Promise<void>) {}

  /** Whether every change asked for so far has been applied. */
  get isCaughtUp(): boolean {
    return this.waiting.length === 0;
  }

  /** Records a change asked for now; the returned function applies it, and every earlier one not applied yet. */
  add(update: Promise<StoreUpdate>): () => Promise<void> {
    const entry: Entry = { update };
    this.waiting.push(entry);
    return async () => {
      while (entry.outcome === undefined) await this.applyNext();
      if ("error" in entry.outcome) throw entry.outcome.error;
    };
  }

  /** Applies every change asked for so far, including those asked for while it runs. Rejects at the first that fails. */
  async catchUp(): Promise<void> {
    while (this.waiting.length > 0) {
      const entry = this.waiting[0]!;
      await this.applyNext();
      if (entry.outcome !== undefined && "error" in entry.outcome) throw entry.outcome.error;
    }
  }

  private async applyNext(): Promise<void> {
    const entry = this.waiting.shift();
    if (entry === undefined) return;
    try {
      await this.apply(await entry.update);
      entry.outcome = {};
    } catch (error) {
      entry.outcome = { error };
    }
  }
}
