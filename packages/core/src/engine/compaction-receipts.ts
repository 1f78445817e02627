// Compaction receipts: one durable record per compaction, kept in the session's state under a reserved name.
//
// The strategies' state is already durable, shared by every worker (compare-and-set on shared stores) and
// loaded at open by every store, so receipts live there: one key per receipt, under a name no strategy may
// take. Ids are the time plus a random part, so two workers never write the same key.
import { ContextStateConflictError } from "../errors.js";
import type { Message } from "../messages/message.js";
import type { PipelineStep, StrategyStateStore, ViewEntry } from "../pipeline/strategy.js";
import type { CompactionDecisionRecord, CompactionReceipt, CompactionSummary, MessageFate, MessageFateRun } from "../protocol.js";
import type { CompactionReason } from "../events.js";
import { countFates, deriveMessageFates, type FateSources } from "./message-fates.js";

/** The state name receipts are kept under: parenthesized like `(pins)`, and refused as a strategy's name. */
export const RECEIPT_STATE = "(compactions)";
/** How many of the newest receipts keep their per-message fates. */
export const DEFAULT_KEEP_COMPACTION_RECEIPTS = 32;
/** Receipts older than this many times `keepCompactionReceipts` are deleted, summary and all. */
export const SUMMARY_RETENTION_MULTIPLE = 8;

const FATE_CODES: Record<MessageFate, string> = { kept: "k", cleared: "c", trimmed: "t", summarized: "s", dropped: "d" };
const FATES_BY_CODE = new Map(Object.entries(FATE_CODES).map(([fate, code]) => [code, fate as MessageFate]));

/** What a compaction pass hands over once its view is committed. */
export interface CompactionOutcome {
  readonly reason: CompactionReason;
  readonly budget: number;
  readonly target: number;
  readonly tokensBefore: number;
  /** The decision that set the compaction off, when the manager chose to make it. */
  readonly decision?: CompactionDecisionRecord | undefined;
  readonly steps: readonly PipelineStep[];
  readonly entries: readonly ViewEntry[];
  readonly tokensAfter: number;
  readonly historyLength: number;
  /** The view the previous request returned. */
  readonly previousView: readonly Message[];
  readonly sources: FateSources;
  /** Set for `compact({ through })`. */
  readonly through?: number;
  readonly hasInstructions?: boolean;
}

/** The last receipt id's time and sequence in this process: ids made in one millisecond still sort in the order made. */
let lastIdTime = 0;
let sequence = 0;

/**
 * A new receipt id: the time in base 36, a sequence within the millisecond (so ids sort in the order they
 * were made, in one process), then 8 random hexadecimal digits (so two workers never make the same one).
 */
export function createReceiptId(now = Date.now()): string {
  if (now > lastIdTime) {
    lastIdTime = now;
    sequence = 0;
  } else sequence += 1;
  const random = new Uint8Array(4);
  globalThis.crypto.getRandomValues(random);
  const suffix = [...random].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${lastIdTime.toString(36).padStart(9, "0")}-${sequence.toString(36).padStart(4, "0")}-${suffix}`;
}

/** The leading entries `view` shares with `previous` (the same message object, or an equal one), and their tokens. */
export function sharedPrefix(previous: readonly Message[], entries: readonly ViewEntry[]): { messages: number; tokens: number } {
  let messages = 0;
  let tokens = 0;
  while (messages < previous.length && messages < entries.length) {
    const entry = entries[messages]!;
    if (entry.message !== previous[messages] && JSON.stringify(entry.message) !== JSON.stringify(previous[messages])) break;
    tokens += entry.tokens;
    messages += 1;
  }
  return { messages, tokens };
}

/** Builds the receipt of a committed compaction. */
export function buildReceipt(outcome: CompactionOutcome, id = createReceiptId(), at = new Date()): CompactionReceipt {
  const fates = deriveMessageFates(outcome.historyLength, outcome.entries, outcome.sources);
  return {
    id,
    at: at.toISOString(),
    reason: outcome.reason,
    budget: outcome.budget,
    target: outcome.target,
    tokensBefore: outcome.tokensBefore,
    tokensAfter: outcome.tokensAfter,
    historyLength: outcome.historyLength,
    viewLength: outcome.entries.length,
    steps: outcome.steps.map(({ strategy, applied, tokensBefore, tokensAfter, skipped }) => ({
      strategy,
      applied,
      tokensBefore,
      tokensAfter,
      ...(skipped === undefined ? {} : { skipped }),
    })),
    sharedPrefix: sharedPrefix(outcome.previousView, outcome.entries),
    ...(outcome.decision === undefined ? {} : { decision: outcome.decision }),
    fateCounts: countFates(fates),
    hasFates: true,
    fates,
    ...(outcome.through === undefined ? {} : { through: outcome.through }),
    ...(outcome.hasInstructions === true ? { hasInstructions: true } : {}),
  };
}

/** The receipts of one session, over its state. Bounded: the newest `keep` in full, older ones as summaries, then none. */
export class CompactionReceipts {
  constructor(
    private readonly state: StrategyStateStore,
    private readonly keep = DEFAULT_KEEP_COMPACTION_RECEIPTS,
  ) {}

  /** Writes `receipt`, then applies the bound; resolves once the receipt is stored. */
  async record(receipt: CompactionReceipt): Promise<void> {
    await this.state.set(receipt.id, encodeReceipt(receipt));
    await this.applyBound();
  }

  /** Every receipt kept, oldest first, without fates. */
  list(): CompactionSummary[] {
    const summaries: CompactionSummary[] = [];
    for (const id of this.sortedIds()) {
      const receipt = decodeReceipt(id, this.state.get(id));
      if (receipt === undefined) continue;
      const { fates: _fates, ...summary } = receipt;
      summaries.push(summary);
    }
    return summaries;
  }

  get(id: string): CompactionReceipt | undefined {
    return typeof id === "string" ? decodeReceipt(id, this.state.get(id)) : undefined;
  }

  /** Marks each receipt of `ids` undone at `at`, keeping everything else it holds. */
  async markUndone(ids: readonly string[], at: string): Promise<void> {
    for (const id of ids) {
      const stored = this.state.get<StoredReceipt>(id);
      if (stored !== undefined) await this.state.set(id, { ...stored, undoneAt: at });
    }
  }

  /**
   * Strips the fates of receipts past the newest `keep`, and deletes those past `keep × 8`. Another worker may
   * do the same at once; the loser's compare-and-set changes nothing it needs, so its conflict is ignored.
   */
  private async applyBound(): Promise<void> {
    const ids = this.sortedIds().reverse();
    for (const [position, id] of ids.entries()) {
      if (position < this.keep) continue;
      const stored = this.state.get<StoredReceipt>(id);
      try {
        if (position >= this.keep * SUMMARY_RETENTION_MULTIPLE) await this.state.delete(id);
        else if (stored?.fates !== undefined) {
          const { fates: _fates, ...summary } = stored;
          await this.state.set(id, summary);
        }
      } catch (error) {
        if (!(error instanceof ContextStateConflictError)) throw error;
      }
    }
  }

  private sortedIds(): string[] {
    return this.state.keys().sort();
  }
}

type StoredFateRun = [number, number, string] | [number, number, string, string] | [number, number, string, string, number, number];

interface StoredReceipt {
  at: string;
  reason: CompactionReason;
  budget: number;
  target: number;
  tokensBefore: number;
  tokensAfter: number;
  historyLength: number;
  viewLength: number;
  steps: CompactionSummary["steps"];
  sharedPrefix: [number, number];
  decision?: CompactionDecisionRecord;
  fateCounts: Record<MessageFate, number>;
  through?: number;
  hasInstructions?: boolean;
  undoneAt?: string;
  /** Runs as short tuples (`[from, to, code, strategy?, summaryViewIndex?, coveredThrough?]`): a long session's receipt stays small. */
  fates?: StoredFateRun[];
}

function encodeReceipt(receipt: CompactionReceipt): StoredReceipt {
  const { id: _id, hasFates: _hasFates, sharedPrefix: prefix, fates, ...figures } = receipt;
  return {
    ...figures,
    sharedPrefix: [prefix.messages, prefix.tokens],
    fates: fates.map((run): StoredFateRun => {
      const code = FATE_CODES[run.fate];
      if (run.summary !== undefined) return [run.from, run.to, code, run.strategy ?? "", run.summary.viewIndex, run.summary.coveredThrough];
      return run.strategy === undefined ? [run.from, run.to, code] : [run.from, run.to, code, run.strategy];
    }),
  };
}

/** The receipt stored under `id`, or `undefined` when there is none or it does not read as one. */
function decodeReceipt(id: string, value: unknown): CompactionReceipt | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const stored = value as Partial<StoredReceipt>;
  if (typeof stored.at !== "string" || typeof stored.reason !== "string" || !Array.isArray(stored.sharedPrefix)) return undefined;
  const fates: MessageFateRun[] = [];
  for (const run of Array.isArray(stored.fates) ? stored.fates : []) {
    const [from, to, code, strategy, viewIndex, coveredThrough] = run;
    const fate = FATES_BY_CODE.get(code);
    if (fate === undefined) return undefined;
    fates.push({
      from,
      to,
      fate,
      ...(strategy === undefined ? {} : { strategy }),
      ...(viewIndex === undefined || coveredThrough === undefined ? {} : { summary: { viewIndex, coveredThrough } }),
    });
  }
  const [messages = 0, tokens = 0] = stored.sharedPrefix;
  return {
    id,
    at: stored.at,
    reason: stored.reason,
    budget: stored.budget ?? 0,
    target: stored.target ?? 0,
    tokensBefore: stored.tokensBefore ?? 0,
    tokensAfter: stored.tokensAfter ?? 0,
    historyLength: stored.historyLength ?? 0,
    viewLength: stored.viewLength ?? 0,
    steps: stored.steps ?? [],
    sharedPrefix: { messages, tokens },
    ...(isDecisionRecord(stored.decision) ? { decision: stored.decision } : {}),
    fateCounts: stored.fateCounts ?? countFates(fates),
    hasFates: Array.isArray(stored.fates),
    fates,
    ...(typeof stored.through === "number" ? { through: stored.through } : {}),
    ...(stored.hasInstructions === true ? { hasInstructions: true } : {}),
    ...(typeof stored.undoneAt === "string" ? { undoneAt: stored.undoneAt } : {}),
  };
}

/** Whether a stored value reads as a decision record: a receipt written by another version may lack one or hold another shape. */
function isDecisionRecord(value: unknown): value is CompactionDecisionRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.trigger === "string" && typeof record.target === "number" && typeof record.expectedSaving === "number";
}
