// Summary checkpoints in the strategy's state store, one key each, keyed by the history prefix they cover and their content.
import { ContextStateConflictError } from "@ctxkit/core";
import type { StrategyStateStore } from "@ctxkit/core/kit";
import { z } from "zod";
import type { FileLists } from "./file-operations.js";
import { createSha256 } from "./sha256.js";

const checkpointSchema = z.object({
  version: z.literal(1),
  /** The last history index the summary covers. */
  coveredThrough: z.number().int().nonnegative(),
  /** Digest of `history[0..coveredThrough]`: the checkpoint applies only to a history with that prefix. */
  digest: z.string(),
  /** History indices up to `coveredThrough` that the summary does not cover: they stay verbatim. */
  verbatim: z.array(z.number().int().nonnegative()),
  /** The summarizer's text, without the tags and file lists the summary message adds. */
  text: z.string(),
  /** Tokens of the history messages the summary stands for. */
  tokensBefore: z.number().nonnegative(),
  readFiles: z.array(z.string()),
  modifiedFiles: z.array(z.string()),
  /** When it was saved, relative to the others: one more than the newest its writer knew of. Older records lack it: oldest. */
  savedOrder: z.number().int().nonnegative().optional(),
});

export interface Checkpoint extends FileLists {
  readonly coveredThrough: number;
  readonly digest: string;
  readonly verbatim: readonly number[];
  readonly text: string;
  readonly tokensBefore: number;
}

interface StoredRecord {
  readonly key: string;
  readonly savedOrder: number;
  readonly checkpoint: Checkpoint;
}

const RECORD_PREFIX = "checkpoint:";
/** Where checkpoints were listed before each record was found by its key; removed by the next save. */
const LEGACY_INDEX_KEY = "checkpoints";
/** Older checkpoints only help after a rewind to an earlier point of the session; a few are enough. */
export const MAX_CHECKPOINTS = 16;

/**
 * Named by the whole content, not only by the prefix covered: a record is never rewritten with other
 * content, so two writers of a shared session that summarized the same messages differently keep both.
 */
function recordKey(checkpoint: Checkpoint): string {
  const { coveredThrough, digest, verbatim, text, tokensBefore, readFiles, modifiedFiles } = checkpoint;
  const content = createSha256()
    .update(JSON.stringify([coveredThrough, digest, verbatim, text, tokensBefore, readFiles, modifiedFiles]))
    .digest("base64url")
    .slice(0, 16);
  return `${RECORD_PREFIX}${coveredThrough}:${digest}:${content}`;
}

/** Written before records were keyed by content; still read. */
const legacyRecordKey = ({ coveredThrough, digest }: Checkpoint): string => `${RECORD_PREFIX}${coveredThrough}:${digest}`;

/**
 * Waits for a write of this store; a lost compare-and-set on a shared store (`ContextStateConflictError`)
 * is not a failure here, because every key it writes is a record named by its content or a delete. On a
 * record, the other writer stored this same checkpoint, saved it again, or evicted it as its oldest; a
 * delete is one the other writer made too, or undid by saving that checkpoint again. Its value stands,
 * and the next sync brings it in. A write that fails otherwise still rejects.
 */
async function ignoringConflict(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (!(error instanceof ContextStateConflictError)) throw error;
  }
}

/** Reads are synchronous (the store holds its values in memory); anything malformed is ignored, not trusted. */
export class CheckpointStore {
  constructor(private readonly state: StrategyStateStore) {}

  /** Every stored checkpoint, oldest first. */
  list(): Checkpoint[] {
    return this.records().map((record) => record.checkpoint);
  }

  /** Stores `checkpoint` as the newest, and forgets the oldest beyond `MAX_CHECKPOINTS`. */
  async save(checkpoint: Checkpoint): Promise<void> {
    const records = this.records();
    const key = recordKey(checkpoint);
    if (records.at(-1)?.key !== key) {
      await ignoringConflict(
        this.state.set(key, {
          version: 1,
          ...checkpoint,
          verbatim: [...checkpoint.verbatim],
          readFiles: [...checkpoint.readFiles],
          modifiedFiles: [...checkpoint.modifiedFiles],
          savedOrder: (records.at(-1)?.savedOrder ?? 0) + 1,
        }),
      );
    }
    const older = records.filter((record) => record.key !== key);
    for (const old of older.slice(0, Math.max(0, older.length + 1 - MAX_CHECKPOINTS))) await ignoringConflict(this.state.delete(old.key));
    if (this.state.get(LEGACY_INDEX_KEY) !== undefined) await ignoringConflict(this.state.delete(LEGACY_INDEX_KEY));
  }

  /** The valid records, oldest first. */
  private records(): StoredRecord[] {
    const records: StoredRecord[] = [];
    for (const key of this.state.keys()) {
      if (!key.startsWith(RECORD_PREFIX)) continue;
      const parsed = checkpointSchema.safeParse(this.state.get(key));
      if (!parsed.success) continue;
      const { version: _version, savedOrder = 0, ...checkpoint } = parsed.data;
      if (key !== recordKey(checkpoint) && key !== legacyRecordKey(checkpoint)) continue;
      records.push({ key, savedOrder, checkpoint });
    }
    // Two writers saving at once can pick the same order: the key settles it, the same way for every reader.
    return records.sort((left, right) => left.savedOrder - right.savedOrder || (left.key < right.key ? -1 : left.key > right.key ? 1 : 0));
  }
}
