// Keeping the view's tail: the view grows by what was added since the last request, without touching its settled prefix.
import type { EventSink } from "./event-sink.js";
import { hasToolCalls, type Message } from "../messages/message.js";
import type { ViewEntry } from "../pipeline/strategy.js";
import { countMessageTokens, MESSAGE_OVERHEAD_TOKENS } from "../tokens/count-message-tokens.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { findToolUnits } from "../units/find-tool-units.js";
import { PairCheck, repairToolPairs } from "../units/repair-tool-pairs.js";
import type { ToolPairRepair } from "../units/tool-unit.js";
import type { PinSet } from "./pin-set.js";
import type { SessionHistory } from "./session-history.js";
import { type PendingHistory, type StickySnapshot, StickyView } from "./sticky-view.js";
import { entryKindOf } from "../pipeline/truncated-past.js";

/** A view tail as it stood before a compaction, to put back when that compaction is undone in this process. */
export interface TailSnapshot {
  readonly view: StickySnapshot;
  readonly openUnitEdits: ReadonlyMap<number, ViewEntry>;
}

/** The view a request returns, and what keeps its end in step with the history. Synchronous. */
export class ViewTail {
  readonly view = new StickyView();
  /**
   * Compaction decisions for messages of a trailing tool unit still waiting for results: that unit
   * is rebuilt from the history on each request, and these keep a committed compaction's edits.
   */
  private openUnitEdits = new Map<number, ViewEntry>();
  /** Repairs already reported, so a repair is announced once, not on every request. */
  private reportedRepairs = new Set<string>();

  constructor(
    private readonly history: SessionHistory,
    private readonly counter: TokenCounter,
    private readonly pins: PinSet,
  ) {}

  /**
   * Rebuilds the view's unsettled end from the history: repairs broken pairs and counts messages
   * not counted yet, so the cost is proportional to what was added since the last request.
   * Returns where the settled part must end (the start of a trailing tool unit still waiting for
   * results, which a later result would change, or the end of the history) and the repairs to announce.
   */
  refresh(deferUnder = 0): { openUnitStart: number; repairs: ToolPairRepair[] } {
    const from = this.view.settledUntil;
    // A view that starts again from the whole history (a first request) counts it and makes entries only when read.
    const pending = from === 0 && this.view.length === 0 && this.openUnitEdits.size === 0 ? this.pendingHistory(deferUnder) : undefined;
    if (pending !== undefined) {
      this.view.setPending(pending);
      return { openUnitStart: openUnitStart(this.history.messages, 0), repairs: [] };
    }
    const { entries, repairs, bounds } = this.entriesFrom(from, true, deferUnder - this.view.settledBound);
    this.view.setTail(entries, bounds);
    return { openUnitStart: openUnitStart(this.history.messages, from), repairs };
  }

  /**
   * The entries `refresh` would leave, or with `rebuild` those `rebuild` would give, changing nothing here:
   * no repair is marked announced and the view is not touched (explainView).
   */
  preview(rebuild = false): ViewEntry[] {
    if (rebuild) {
      const edits = this.openUnitEdits;
      this.openUnitEdits = new Map();
      try {
        return this.entriesFrom(0, false).entries;
      } finally {
        this.openUnitEdits = edits;
      }
    }
    const from = this.view.settledUntil;
    const settled = this.view.entries.slice(0, this.view.settledCount);
    return settled.concat(this.entriesFrom(from, false).entries);
  }

  /** The whole history as view entries again, for a view that grows back; forgets the open unit's edits. */
  rebuild(): { entries: ViewEntry[]; repairs: ToolPairRepair[] } {
    this.openUnitEdits = new Map();
    return this.entriesFrom(0);
  }

  /** Settles the view up to `openUnitStart`, keeping what a compaction changed in the open unit after it. */
  settle(openUnitStart: number, compacted: boolean): void {
    if (compacted) this.keepOpenUnitEdits(openUnitStart);
    this.view.settle(openUnitStart);
    for (const index of this.openUnitEdits.keys()) if (index < openUnitStart) this.openUnitEdits.delete(index);
  }

  /** Marks the view's entries as the pins now say. */
  remarkPins(): void {
    this.view.remark((entry) => this.pins.mark(entry));
  }

  snapshot(): TailSnapshot {
    return { view: this.view.snapshot(), openUnitEdits: new Map(this.openUnitEdits) };
  }

  /** Puts back the view of `snapshot`; what the history gained since is added at the next refresh, and pins are marked as they are now. */
  restore(snapshot: TailSnapshot): void {
    this.view.restore(snapshot.view);
    this.openUnitEdits = new Map(snapshot.openUnitEdits);
    this.remarkPins();
  }

  reset(): void {
    this.view.reset();
    this.openUnitEdits = new Map();
    this.reportedRepairs = new Set();
  }

  /** View entries for the history from index `from` on, with broken pairs repaired, and the repairs not announced yet. */
  private entriesFrom(
    from: number,
    announce = true,
    deferUnder = 0,
  ): { entries: ViewEntry[]; repairs: ToolPairRepair[]; bounds?: number[] } {
    const { messages } = this.history;
    const unrepaired = this.entriesWithoutRepair(from, deferUnder);
    if (unrepaired !== undefined) return { ...unrepaired, repairs: [] };
    const repaired = repairToolPairs(from === 0 ? messages : messages.slice(from));
    const entries: ViewEntry[] = repaired.messages.map((message, position) => {
      const source = repaired.sources[position];
      if (source === null || source === undefined) {
        return Object.freeze<ViewEntry>({
          message,
          tokens: countMessageTokens(message, this.counter),
          source: { kind: "synthetic", origin: "repair" },
        });
      }
      const index = from + source;
      // Frozen as a draft would freeze it, so a compaction's draft shares the view's entries rather than copying each.
      const entry: ViewEntry =
        this.openUnitEdits.get(index) ??
        Object.freeze<ViewEntry>({ message, tokens: this.history.tokensOf(index), source: { kind: "history", index } });
      return this.pins.size === 0 ? entry : this.pins.mark(entry);
    });
    if (!announce) return { entries, repairs: [] };
    const repairs = repaired.repairs.filter((repair) => {
      const key = `${repair.kind}:${from + repair.index}`;
      if (this.reportedRepairs.has(key)) return false;
      this.reportedRepairs.add(key);
      return true;
    });
    return { entries, repairs };
  }

  /**
   * The entries (and their bounds) for the history from `from` on when nothing needs repair, the common case and on
   * a first view the whole history: made in the loop that checks the pairs, so each message is read once, without
   * the repair's copy of the messages and its list of where each came from. `undefined` when a pair needs repair.
   */
  private entriesWithoutRepair(from: number, deferUnder: number): { entries: ViewEntry[]; bounds: number[] } | undefined {
    const { messages } = this.history;
    const entries = new Array<ViewEntry>(messages.length - from);
    // At least each entry's tokens. When the view's bound is under `deferUnder`, where the view is served without
    // a count, the history's entries count their message only when their tokens are read; else they count it now.
    const bounds = new Array<number>(messages.length - from);
    const hasEdits = this.openUnitEdits.size > 0;
    const defer = this.history.hasBound && this.boundUnder(from, deferUnder);
    const pairs = new PairCheck();
    for (let index = from; index < messages.length; index += 1) {
      if (!pairs.accepts(messages[index]!)) return undefined;
      const edited = hasEdits ? this.openUnitEdits.get(index) : undefined;
      const entry = edited ?? this.history.entryAt(index, defer);
      entries[index - from] = this.pins.size === 0 ? entry : this.pins.mark(entry);
      bounds[index - from] = edited === undefined && defer ? this.history.boundOf(index) : entry.tokens;
    }
    return pairs.isComplete ? { entries, bounds } : undefined;
  }

  /**
   * The whole history, counted and checked for pairs in one loop, as a view that makes its entries when read: what
   * `entriesFrom(0)` would give, entry for entry. `undefined` when a pair needs repair, or the count is left for later.
   */
  private pendingHistory(deferUnder: number): PendingHistory | undefined {
    const { history, pins } = this;
    const { messages } = history;
    if (messages.length === 0 || (history.hasBound && this.boundUnder(0, deferUnder))) return undefined;
    const kinds = new Uint8Array(messages.length);
    const pairs = new PairCheck();
    let tokens = 0;
    for (let index = 0; index < messages.length; index += 1) {
      const message = messages[index]!;
      if (!pairs.accepts(message)) return undefined;
      tokens += history.tokensOf(index);
      kinds[index] = entryKindOf(message, pins.size > 0 && pins.has(index));
    }
    if (!pairs.isComplete) return undefined;
    return {
      count: messages.length,
      tokens,
      kinds,
      messageAt: (index) => messages[index]!,
      tokensAt: (index) => history.tokensOf(index),
      entryAt: (index) => {
        const entry = history.entryAt(index, false);
        return pins.size === 0 ? entry : pins.mark(entry);
      },
    };
  }

  /** Whether the history's entries from `from` on, as the view would take them, are bounded under `limit` (looked at only up to it). */
  private boundUnder(from: number, limit: number): boolean {
    const { messages } = this.history;
    // A long view fails at once on what no bound is below, its string contents' lengths and the framing, before a text is measured.
    let least = 0;
    for (let index = from; index < messages.length && least < limit; index += 1) {
      const { content } = messages[index]!;
      least += MESSAGE_OVERHEAD_TOKENS + (typeof content === "string" ? content.length : 0);
    }
    if (least >= limit) return false;
    let bound = 0;
    for (let index = from; index < this.history.length && bound < limit; index += 1)
      bound += this.openUnitEdits.get(index)?.tokens ?? this.history.boundOf(index);
    return bound < limit;
  }

  /** Remembers what the last compaction changed in the unsettled open unit, so it stays committed. */
  private keepOpenUnitEdits(openUnitStart: number): void {
    this.openUnitEdits = new Map();
    for (const entry of this.view.entries) {
      const { source } = entry;
      if (source.kind === "history" && source.index >= openUnitStart && entry.message !== this.history.messages[source.index]) {
        this.openUnitEdits.set(source.index, entry);
      }
    }
  }
}

/** Each repair is announced once, not on every request. */
export async function announceRepairs(events: EventSink, repairs: readonly ToolPairRepair[]): Promise<void> {
  for (const repair of repairs) await events.emit("context:repair", { kind: repair.kind, toolCallIds: repair.toolCallIds });
}

/**
 * Where a trailing tool unit still waiting for results starts in `messages` from `tailFrom` on (a history
 * index), or `messages.length` when there is none.
 */
function openUnitStart(messages: readonly Message[], tailFrom: number): number {
  // A unit goes on only over tool messages, so one always starts at the last message that is not one:
  // the units are found from there, not over the whole tail (all of the history on a first request).
  let from = messages.length - 1;
  while (from > tailFrom && messages[from]!.role === "tool") from -= 1;
  const unitsFrom = Math.max(tailFrom, from);
  const last = findToolUnits(messages.slice(unitsFrom)).at(-1);
  if (last === undefined || last.kind !== "tool") return messages.length;
  const start = unitsFrom + last.start;
  const opener = messages[start]!;
  const answered = last.end - last.start - 1;
  return hasToolCalls(opener) && answered < opener.tool_calls.length ? start : messages.length;
}
