// The last view's decisions, kept so the next view is the previous one plus what was added since.
import type { Message } from "../messages/message.js";
import type { ViewEntry } from "../pipeline/strategy.js";

export interface StickySnapshot {
  readonly entries: readonly ViewEntry[];
  readonly tokens: number;
  readonly settledUntil: number;
  readonly settledLength: number;
  readonly settledTokens: number;
}

export class StickyView {
  /** The view's entries and, in step, their messages: what a request returns a copy of. */
  readonly entries: ViewEntry[] = [];
  readonly messages: Message[] = [];
  tokens = 0;
  /** History messages before this index are settled: their entries never change until a compaction. */
  settledUntil = 0;
  private settledLength = 0;
  private settledTokens = 0;

  /** Everything this view holds, copied: what an undo of the next compaction puts back. */
  snapshot(): StickySnapshot {
    const { tokens, settledUntil, settledLength, settledTokens } = this;
    return { entries: this.entries.slice(), tokens, settledUntil, settledLength, settledTokens };
  }

  restore(snapshot: StickySnapshot): void {
    this.replace(snapshot.entries);
    this.settledUntil = snapshot.settledUntil;
    this.settledLength = snapshot.settledLength;
    this.settledTokens = snapshot.settledTokens;
  }

  /** How many leading entries are settled: the previous request's view shares at least these. */
  get settledCount(): number {
    return this.settledLength;
  }

  reset(): void {
    this.replace([]);
    this.settle(0);
  }

  /** Replaces the unsettled end of the view with freshly built entries. */
  setTail(tail: readonly ViewEntry[]): void {
    this.truncateTo(this.settledLength, this.settledTokens);
    for (const entry of tail) this.push(entry);
  }

  /** Replaces entries `update` changes (a pin, say) in place; the messages and token counts stay. */
  remark(update: (entry: ViewEntry) => ViewEntry): void {
    for (let position = 0; position < this.entries.length; position += 1) this.entries[position] = update(this.entries[position]!);
  }

  /** Replaces the whole view, after a compaction. */
  replace(entries: readonly ViewEntry[]): void {
    this.truncateTo(0, 0);
    for (const entry of entries) this.push(entry);
  }

  /**
   * Marks history messages before `historyIndex` as settled. Their entries end just before the first
   * entry taken from the history at or after that index; synthetic entries before it (a summary, a
   * repair of an earlier unit) stay settled with them.
   */
  settle(historyIndex: number): void {
    let position = this.entries.length;
    while (position > 0) {
      const source = this.entries[position - 1]!.source;
      if (source.kind === "history" && source.index < historyIndex) break;
      position -= 1;
    }
    while (position < this.entries.length) {
      const source = this.entries[position]!.source;
      if (source.kind === "history" && source.index >= historyIndex) break;
      position += 1;
    }
    let tokens = this.tokens;
    for (let index = position; index < this.entries.length; index += 1) tokens -= this.entries[index]!.tokens;
    this.settledUntil = historyIndex;
    this.settledLength = position;
    this.settledTokens = tokens;
  }

  private truncateTo(length: number, tokens: number): void {
    this.entries.length = length;
    this.messages.length = length;
    this.tokens = tokens;
  }

  private push(entry: ViewEntry): void {
    this.entries.push(entry);
    this.messages.push(entry.message);
    this.tokens += entry.tokens;
  }
}
