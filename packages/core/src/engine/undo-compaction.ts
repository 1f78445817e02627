// Undoing compactions: the strategies' state each compaction replaced, kept beside its receipt, and put back on undo.
//
// What a compaction leaves that outlives the process is the strategies' state it wrote (a summary checkpoint,
// say): its view lives in memory only and is rebuilt from the history and that state. So, before a
// compaction's receipt is written, the values its strategies replaced are kept under `(compaction-state)`,
// keyed by the receipt id. Undo puts them back for the compaction named and every later one, newest first,
// sets the values it replaces aside under `(undone-state)` (nothing is deleted), and marks the receipts undone.
// Both records keep the newest `keepCompactionReceipts`, the receipts' own bound for their fates.
import { ContextStateConflictError, ContextUndoError } from "../errors.js";
import type { StrategyStateStore } from "../pipeline/strategy.js";
import type { UndoCompactionResult } from "../protocol.js";
import type { CompactionReceipts } from "./compaction-receipts.js";
import type { StrategyStates } from "./strategy-states.js";

/** Where the state each compaction replaced is kept, by receipt id. */
export const COMPACTION_STATE = "(compaction-state)";
/** Where an undo sets aside the state it replaced, by the receipt id undone. */
export const UNDONE_STATE = "(undone-state)";

/** Each tracked strategy's state as JSON, by name and key: what a compaction may replace. */
export type StateCapture = Map<string, Map<string, string>>;

/** One value: `[strategy, key]` when the key was absent, `[strategy, key, value]` otherwise. */
type StateValue = [string, string] | [string, string, unknown];

interface KeptState {
  changes: StateValue[];
}

interface SetAsideState {
  at: string;
  /** The receipts this undo marked undone. */
  receipts: string[];
  /** What the state held, for each key the undo put back, before it did. */
  values: StateValue[];
}

/** The manager's own records (pins, receipts, these) are no compaction's state; the last-resort passes' `(fallback)` is. */
function isTracked(name: string): boolean {
  return !name.startsWith("(") || name === "(fallback)";
}

export class CompactionUndo {
  /** The undos this manager has taken in, so one another worker made is noticed at the next sync. */
  private readonly seenUndos = new Set<string>();

  constructor(
    private readonly states: StrategyStates,
    private readonly receipts: CompactionReceipts,
    private readonly keep: number,
  ) {}

  /** The tracked state as it stands: taken before a compaction runs its strategies. */
  capture(): StateCapture {
    const { state } = this.states;
    const capture: StateCapture = new Map();
    for (const name of state.names()) if (isTracked(name)) capture.set(name, new Map(state.recordedOf(name)));
    return capture;
  }

  /** Keeps what compaction `receiptId` replaced of `before`; called once its strategies ran, before its receipt is written. */
  async keepReplaced(receiptId: string, before: StateCapture): Promise<void> {
    const log = this.states.storeFor(COMPACTION_STATE);
    await log.set(receiptId, { changes: replacedValues(before, this.capture()) } satisfies KeptState);
    await keepNewest(log, this.keep);
  }

  /**
   * Puts back the state as it was before compaction `id`, undoing it and every later one not undone yet, marks
   * them undone, then has `view` (the engine's) go back to its view from before `id`. Checks everything before it
   * writes anything: a refusal changes nothing, the view in memory included.
   */
  async undo(id: string, view?: { undoTo(id: string): void }, at = new Date()): Promise<UndoCompactionResult> {
    const receipt = this.receipts.get(id);
    if (receipt === undefined)
      throw new ContextUndoError(id, "unknown", "the session keeps no receipt with that id; listCompactions() lists those it keeps.");
    if (receipt.undoneAt !== undefined)
      throw new ContextUndoError(
        id,
        "already-undone",
        `it was undone at ${receipt.undoneAt}. Nothing changed; undo a compaction that listCompactions() shows without undoneAt.`,
      );
    const ids = this.receipts
      .list()
      .filter((summary) => summary.id >= id && summary.undoneAt === undefined)
      .map((summary) => summary.id);
    const log = this.states.storeFor(COMPACTION_STATE);
    const kept = ids.map((receiptId) => ({ receiptId, record: log.get<KeptState>(receiptId) }));
    const dropped = kept.find(({ record }) => !Array.isArray(record?.changes));
    if (dropped !== undefined) {
      const whose = dropped.receiptId === id ? "it" : `the later compaction "${dropped.receiptId}", undone with it,`;
      throw new ContextUndoError(
        id,
        "state-dropped",
        `the state ${whose} replaced is no longer kept: only the newest keepCompactionReceipts (${this.keep}) compactions keep theirs. ` +
          "Nothing changed; raise keepCompactionReceipts to undo further back.",
      );
    }
    // Newest first, so for a key several replaced, the value before the oldest of them, compaction `id`, stays.
    const restore = new Map<string, StateValue>();
    for (const { record } of kept.reverse()) for (const change of record!.changes) restore.set(JSON.stringify(change.slice(0, 2)), change);
    const when = at.toISOString();
    const setAside: SetAsideState = {
      at: when,
      receipts: ids,
      values: [...restore.values()].map(([name, key]) => this.valueOf(name, key)),
    };
    const aside = this.states.storeFor(UNDONE_STATE);
    // A retry after a lost compare-and-set keeps what the first attempt set aside, before it put anything back.
    if (aside.get(id) === undefined) await aside.set(id, setAside);
    for (const [name, key, ...value] of restore.values()) {
      const store = this.states.storeFor(name);
      await (value.length === 0 ? store.delete(key) : store.set(key, value[0]));
    }
    await this.receipts.markUndone(ids, when);
    await keepNewest(aside, this.keep);
    this.seenUndos.add(id);
    view?.undoTo(id);
    return { undone: ids };
  }

  /** Whether the state (just synced from a shared store) holds an undo this manager has not taken in: its view must be rebuilt. */
  noticeUndos(): boolean {
    const undos = this.states.storeFor(UNDONE_STATE).keys();
    const isNew = undos.some((id) => !this.seenUndos.has(id));
    for (const id of undos) this.seenUndos.add(id);
    return isNew;
  }

  private valueOf(name: string, key: string): StateValue {
    const json = this.states.state.recordedOf(name)?.get(key);
    return json === undefined ? [name, key] : [name, key, JSON.parse(json) as unknown];
  }
}

/** The values `after` no longer holds as `before` did: each key's value before (or its absence). */
function replacedValues(before: StateCapture, after: StateCapture): StateValue[] {
  const changes: StateValue[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(name);
    const now = after.get(name);
    for (const key of new Set([...(was?.keys() ?? []), ...(now?.keys() ?? [])])) {
      const previous = was?.get(key);
      if (previous === now?.get(key)) continue;
      changes.push(previous === undefined ? [name, key] : [name, key, JSON.parse(previous) as unknown]);
    }
  }
  return changes;
}

/** Deletes all but the newest `keep` records (ids sort by time). Another worker may do the same at once; its conflict changes nothing needed. */
async function keepNewest(store: StrategyStateStore, keep: number): Promise<void> {
  const ids = store.keys().sort();
  for (const id of ids.slice(0, Math.max(0, ids.length - keep))) {
    try {
      await store.delete(id);
    } catch (error) {
      if (!(error instanceof ContextStateConflictError)) throw error;
    }
  }
}
