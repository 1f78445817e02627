// Summary checkpoints in the strategy's state store, keyed by the history prefix they cover.
import type { StrategyStateStore } from "@ctxkit/core/kit";
import { z } from "zod";
import type { FileLists } from "./file-operations.js";

const indexItemSchema = z.object({ coveredThrough: z.number().int().nonnegative(), digest: z.string() });
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
});

export interface Checkpoint extends FileLists {
  readonly coveredThrough: number;
  readonly digest: string;
  readonly verbatim: readonly number[];
  readonly text: string;
  readonly tokensBefore: number;
}
export type CheckpointKey = z.output<typeof indexItemSchema>;

const INDEX_KEY = "checkpoints";
/** Older checkpoints only help after a rewind to an earlier point of the session; a few are enough. */
export const MAX_CHECKPOINTS = 16;

function recordKey({ coveredThrough, digest }: CheckpointKey): string {
  return `checkpoint:${coveredThrough}:${digest}`;
}

/** Reads are synchronous (the store holds its values in memory); anything malformed is ignored, not trusted. */
export class CheckpointStore {
  constructor(private readonly state: StrategyStateStore) {}

  /** Every stored checkpoint's key, oldest first. */
  keys(): CheckpointKey[] {
    const parsed = z.array(indexItemSchema).safeParse(this.state.get(INDEX_KEY));
    return parsed.success ? parsed.data : [];
  }

  get(key: CheckpointKey): Checkpoint | undefined {
    const parsed = checkpointSchema.safeParse(this.state.get(recordKey(key)));
    if (!parsed.success || parsed.data.coveredThrough !== key.coveredThrough || parsed.data.digest !== key.digest) return undefined;
    const { version: _version, ...checkpoint } = parsed.data;
    return checkpoint;
  }

  /** Stores `checkpoint` as the newest, and forgets the oldest beyond `MAX_CHECKPOINTS`. */
  async save(checkpoint: Checkpoint): Promise<void> {
    const key: CheckpointKey = { coveredThrough: checkpoint.coveredThrough, digest: checkpoint.digest };
    await this.state.set(recordKey(key), {
      version: 1,
      ...checkpoint,
      verbatim: [...checkpoint.verbatim],
      readFiles: [...checkpoint.readFiles],
      modifiedFiles: [...checkpoint.modifiedFiles],
    });
    const keys = this.keys().filter((existing) => recordKey(existing) !== recordKey(key));
    keys.push(key);
    const forgotten = keys.splice(0, Math.max(0, keys.length - MAX_CHECKPOINTS));
    await this.state.set(INDEX_KEY, keys);
    for (const old of forgotten) await this.state.delete(recordKey(old));
  }
}
