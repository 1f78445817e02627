// The last view's decisions, kept so the next view is the previous one plus what was added since.
import type { Message } from "../messages/message.js";
import type { ViewEntry } from "../pipeline/strategy.js";

export interface StickySnapshot {
  readonly entries: readonly ViewEntry[];
  readonly bounds: readonly number[];
  readonly settledUntil: number;
  readonly settledLength: number;
  readonly pending?: PendingHistory;
}

/**
 * A whole history a view starts with, counted but not made into entries yet: the view's entries are `entryAt(0)` to
 * `entryAt(count - 1)`, made when first read. The first view of a long session, when it compacts, makes few of them.
 */
export interface PendingHistory {
  readonly count: number;
  /** The sum of the messages' counts. */
  readonly tokens: number;
  /** The entry of history message `index` as a refresh makes it (counted already). */
  readonly entryAt: (index: number) => ViewEntry;
  /** Each message, and its count. */
  readonly messageAt: (index: number) => Message;
  readonly tokensAt: (index: number) => number;
  /** What a draft reads of each message for its unit and whether it may be dropped (`entryKindOf`). */
  readonly kinds: Uint8Array;
}

/** A view's tokens: `bound` at once, never below the count; `exact()` counts what was not counted yet, and gives the same figure whenever called. */
export interface ViewTokens {
  readonly bound: number;
  exact(): number;
}

export class StickyView {
  /** The view's entries and, in step, their messages (what a request returns a copy of), but for a pending history. */
  private readonly entryList: ViewEntry[] = [];
  private readonly messageList: Message[] = [];
  /** The history the view is, when it was counted and not made into entries yet: then the lists are empty. */
  private pending: PendingHistory | undefined;
  /** At least each entry's tokens, in step with the entries: an entry may count its message only when its tokens are read. */
  private readonly bounds: number[] = [];
  private boundTotal = 0;
  /** The exact tokens of the entries before `summed`: the rest are added when `tokens` is read. */
  private summed = 0;
  private summedTokens = 0;
  /** Measures whose count is still to be made: made before the entries change. */
  private unresolved: (() => number)[] = [];
  /** History messages before this index are settled: their entries never change until a compaction. */
  settledUntil = 0;
  private settledLength = 0;
  /** The sum of the settled entries' bounds: where the bound of a refreshed view starts. */
  settledBound = 0;

  /** The view's entries, made first when they are a pending history. */
  get entries(): ViewEntry[] {
    this.makePending();
    return this.entryList;
  }

  /** The view's messages, in step with its entries. */
  get messages(): Message[] {
    this.makePending();
    return this.messageList;
  }

  /** How many entries the view holds, made or not. */
  get length(): number {
    return this.pending?.count ?? this.entryList.length;
  }

  /** The history the view is, while it is not made into entries: a compaction drafts from it what it keeps. */
  get pendingHistory(): PendingHistory | undefined {
    return this.pending;
  }

  /** The view's entries in order, made one at a time and not kept when the view is a pending history. */
  *leadingEntries(): Generator<ViewEntry> {
    const { pending } = this;
    if (pending === undefined) yield* this.entryList;
    else for (let index = 0; index < pending.count; index += 1) yield pending.entryAt(index);
  }

  /** The exact sum of the entries' tokens, counting the messages not counted yet. */
  get tokens(): number {
    while (this.summed < this.length) this.summedTokens += this.entries[this.summed++]!.tokens;
    return this.summedTokens;
  }

  /**
   * The view's tokens as they stand now, the count left for when it is asked for: a later change of the view does
   * not change them (what was not counted is counted just before the change). The bound is the sum of the entries' bounds.
   */
  measure(): ViewTokens {
    const bound = this.boundTotal;
    if (this.summed === this.length) {
      const tokens = this.summedTokens;
      return { bound, exact: () => tokens };
    }
    let tokens: number | undefined;
    const exact = () => {
      tokens ??= this.tokens;
      return tokens;
    };
    this.unresolved.push(exact);
    return { bound, exact };
  }

  /** Everything this view holds, copied: what an undo of the next compaction puts back. */
  snapshot(): StickySnapshot {
    const { settledUntil, settledLength, pending } = this;
    if (pending !== undefined) return { entries: [], bounds: [], settledUntil, settledLength, pending };
    return { entries: this.entryList.slice(), bounds: this.bounds.slice(), settledUntil, settledLength };
  }

  restore(snapshot: StickySnapshot): void {
    this.truncateTo(0);
    if (snapshot.pending !== undefined) this.setPending(snapshot.pending);
    snapshot.entries.forEach((entry, position) => this.push(entry, snapshot.bounds[position]!));
    this.settledUntil = snapshot.settledUntil;
    this.settledLength = snapshot.settledLength;
    this.settledBound = 0;
    for (let position = 0; position < snapshot.settledLength; position += 1) this.settledBound += snapshot.bounds[position]!;
  }

  /** How many leading entries are settled: the previous request's view shares at least these. */
  get settledCount(): number {
    return this.settledLength;
  }

  reset(): void {
    this.replace([]);
    this.settle(0);
  }

  /** Replaces the whole view with `pending`, every message counted, none made into an entry yet. */
  setPending(pending: PendingHistory): void {
    this.truncateTo(0);
    this.pending = pending;
    this.boundTotal = pending.tokens;
    this.summed = pending.count;
    this.summedTokens = pending.tokens;
  }

  /**
   * Replaces the unsettled end of the view with freshly built entries; `bounds`, when given, holds at least each
   * entry's tokens, so those are not read yet.
   */
  setTail(tail: readonly ViewEntry[], bounds?: readonly number[]): void {
    this.truncateTo(this.settledLength);
    // Sized once rather than grown by pushes: a first view's tail is the whole history.
    const start = this.entryList.length;
    const length = start + tail.length;
    this.entryList.length = length;
    this.messageList.length = length;
    this.bounds.length = length;
    for (let position = 0; position < tail.length; position += 1) {
      const entry = tail[position]!;
      const bound = bounds === undefined ? entry.tokens : bounds[position]!;
      this.entryList[start + position] = entry;
      this.messageList[start + position] = entry.message;
      this.bounds[start + position] = bound;
      this.boundTotal += bound;
    }
  }

  /** Replaces entries `update` changes (a pin, say) in place; the messages and token counts stay. */
  remark(update: (entry: ViewEntry) => ViewEntry): void {
    const { entries } = this;
    for (let position = 0; position < entries.length; position += 1) entries[position] = update(entries[position]!);
  }

  /** Replaces the whole view, after a compaction. */
  replace(entries: readonly ViewEntry[]): void {
    this.truncateTo(0);
    for (const entry of entries) this.push(entry, entry.tokens);
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
    let bound = this.boundTotal;
    for (let index = position; index < this.entries.length; index += 1) bound -= this.bounds[index]!;
    this.settledUntil = historyIndex;
    this.settledLength = position;
    this.settledBound = bound;
  }

  private truncateTo(length: number): void {
    if (length > 0) this.makePending();
    else this.pending = undefined;
    if (this.unresolved.length > 0) {
      const unresolved = this.unresolved;
      this.unresolved = [];
      for (const exact of unresolved) exact();
    }
    if (length === 0) {
      this.boundTotal = 0;
      this.summed = 0;
      this.summedTokens = 0;
    } else {
      for (let position = length; position < this.bounds.length; position += 1) this.boundTotal -= this.bounds[position]!;
      // Only entries already summed are read again here: their tokens are counted.
      for (; this.summed > length; this.summed -= 1) this.summedTokens -= this.entryList[this.summed - 1]!.tokens;
    }
    this.entryList.length = length;
    this.messageList.length = length;
    this.bounds.length = length;
  }

  private push(entry: ViewEntry, bound: number): void {
    this.makePending();
    this.entryList.push(entry);
    this.messageList.push(entry.message);
    this.bounds.push(bound);
    this.boundTotal += bound;
  }

  /** Makes a pending history's entries: its counts, bound and sum are the view's already. */
  private makePending(): void {
    const { pending } = this;
    if (pending === undefined) return;
    this.pending = undefined;
    const { count } = pending;
    this.entryList.length = count;
    this.messageList.length = count;
    this.bounds.length = count;
    for (let index = 0; index < count; index += 1) {
      const entry = pending.entryAt(index);
      this.entryList[index] = entry;
      this.messageList[index] = entry.message;
      this.bounds[index] = entry.tokens;
    }
  }
}
