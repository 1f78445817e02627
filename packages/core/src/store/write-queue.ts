// Write ordering for a store: each write after the one before it, group commit where the backend has it, and the failure latch.
import { FailureLatch } from "./failure-latch.js";

/**
 * How appends waiting at the same time share one commit:
 * - `none`: each append is its own commit (a journal synced on every write);
 * - `queued`: appends made while the commit waits for its turn share it (one transaction for many rows);
 * - `turn`: as `queued`, and the commit also waits one event-loop turn when its turn comes, so callers
 *   resumed by the previous commit join it (one write and one fsync for many lines).
 */
export type Grouping = "none" | "queued" | "turn";

export interface WriteQueueOptions<Item> {
  /** Writes the items of one commit together: one write and fsync, one transaction. */
  readonly commit: (items: readonly Item[]) => Promise<void>;
  /** Default `none`. */
  readonly grouping?: Grouping;
  /** The error a failed write is reported and latched as (a typed store error, say); the error itself by default. */
  readonly toFailure?: (error: unknown) => unknown;
}

interface Batch<Item> {
  readonly items: Item[];
  readonly done: Promise<void>;
}

const ignore = (): void => {};

/**
 * Orders a store's operations. Each step starts after the previous one settled. `append` gathers items
 * into a commit as `grouping` says; `exclusive` runs one write alone; `read` runs in order too but is not
 * a write. After a write fails, that write's caller and every later write get the failure: a backend
 * whose state is unknown is never written to again.
 */
export class WriteQueue<Item> {
  private tail: Promise<void> = Promise.resolve();
  private gathering: Batch<Item> | undefined;
  private readonly latch = new FailureLatch();
  private readonly commit: (items: readonly Item[]) => Promise<void>;
  private readonly grouping: Grouping;
  private readonly toFailure: (error: unknown) => unknown;

  constructor(options: WriteQueueOptions<Item>) {
    this.commit = options.commit;
    this.grouping = options.grouping ?? "none";
    this.toFailure = options.toFailure ?? ((error) => error);
  }

  /** Resolves once `item` is committed, with the others of its commit. */
  append(item: Item): Promise<void> {
    let batch = this.gathering;
    if (batch === undefined) {
      const items: Item[] = [];
      const created: Batch<Item> = { items, done: this.enqueue(() => this.commitBatch(created), true) };
      batch = created;
      if (this.grouping !== "none") this.gathering = batch;
    }
    batch.items.push(item);
    return batch.done;
  }

  /** Runs the write `operation` alone, after every step called before it; steps called later wait for it. */
  exclusive<T>(operation: () => Promise<T>): Promise<T> {
    this.gathering = undefined;
    return this.enqueue(operation, true);
  }

  /** Runs `operation` (a read, a sync) in order with the writes; a failed write does not stop it, nor does its failure stop writes. */
  read<T>(operation: () => Promise<T>): Promise<T> {
    this.gathering = undefined;
    return this.enqueue(operation, false);
  }

  /** Resolves once every step queued so far has settled, whatever its outcome. */
  settled(): Promise<void> {
    this.gathering = undefined;
    return this.tail;
  }

  /** The failure that stopped the writes, if one did. */
  get failure(): { readonly error: unknown } | undefined {
    return this.latch.failure;
  }

  private async commitBatch(batch: Batch<Item>): Promise<void> {
    // Let every append made in this turn of the event loop join, including those of callers the previous
    // commit just resumed: they run as microtasks after this step has started. One turn costs microseconds;
    // it saves an fsync or a write per append under load.
    if (this.grouping === "turn") await new Promise<void>((resolve) => setImmediate(resolve));
    // From here on, new appends gather into the next commit.
    if (this.gathering === batch) this.gathering = undefined;
    await this.commit(batch.items);
  }

  private enqueue<T>(step: () => Promise<T>, isWrite: boolean): Promise<T> {
    const run = isWrite ? () => this.latch.run(step, this.toFailure) : step;
    const result = this.tail.then(run);
    this.tail = result.then(ignore, ignore);
    return result;
  }
}
