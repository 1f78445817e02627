// Orders a journal's writes, and lets appends that wait at the same time share one write and one fsync.
import type { Durability } from "./message-store.js";

/** Where the queue writes: the journal file, or a test double. */
export interface JournalSink {
  /** Appends `text` to the journal. */
  write(text: string): Promise<void>;
  /** Makes everything written so far durable (fsync). */
  sync(): Promise<void>;
}

interface Batch {
  readonly lines: string[];
  readonly done: Promise<void>;
}

const ignore = (): void => {};

/**
 * Each write step starts after the previous one settles. While one batch is being written and synced,
 * new appends gather into the next batch, so under load one fsync covers many appends (group commit).
 * After a step fails, every later step fails with the same error: a journal whose tail is unknown is
 * never written to again.
 */
export class GroupCommitQueue {
  private tail: Promise<void> = Promise.resolve();
  private gathering: Batch | undefined;
  private stopped: { readonly error: unknown } | undefined;

  constructor(
    private readonly sink: JournalSink,
    private readonly durability: Durability,
  ) {}

  /** Resolves once `line` is as durable as the mode promises. */
  append(line: string): Promise<void> {
    let batch = this.gathering;
    if (batch === undefined) {
      const lines: string[] = [];
      const created: Batch = { lines, done: this.enqueue(() => this.commit(created)) };
      batch = created;
      // Under `always` every append is its own batch, with its own write and fsync.
      if (this.durability !== "always") this.gathering = batch;
    }
    batch.lines.push(line);
    return batch.done;
  }

  /** Runs `operation` alone, after every write called before it; writes called later wait for it. */
  exclusive<T>(operation: () => Promise<T>): Promise<T> {
    this.gathering = undefined;
    return this.enqueue(operation);
  }

  /** Resolves once every step queued so far has settled, whatever its outcome. */
  settled(): Promise<void> {
    this.gathering = undefined;
    return this.tail;
  }

  /** The error that stopped the queue, if one did. */
  get failure(): { readonly error: unknown } | undefined {
    return this.stopped;
  }

  private async commit(batch: Batch): Promise<void> {
    // Let every append made in this turn of the event loop join, including those of callers the previous
    // batch just resumed: they run as microtasks after this step has started. One turn costs microseconds;
    // it saves an fsync under `batch` and a write under `none`.
    if (this.durability !== "always") await new Promise<void>((resolve) => setImmediate(resolve));
    // From here on, new appends gather into the next batch.
    if (this.gathering === batch) this.gathering = undefined;
    await this.sink.write(`${batch.lines.join("\n")}\n`);
    if (this.durability !== "none") await this.sink.sync();
  }

  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      if (this.stopped !== undefined) throw this.stopped.error;
      try {
        return await step();
      } catch (error) {
        this.stopped ??= { error };
        throw error;
      }
    };
    const result = this.tail.then(run);
    this.tail = result.then(ignore, ignore);
    return result;
  }
}
