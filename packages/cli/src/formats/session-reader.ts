// What every session reader is: a format name, a look at the first records to recognize it, and a read.
import type { Message } from "@ctxkit/core";

/** A session file's text, with the name errors report. */
export interface SessionSource {
  readonly file: string;
  readonly text: string;
}

/** What a reader made of a file: the messages, and what it left out, counted by kind. */
export interface SessionRead {
  readonly messages: Message[];
  readonly skipped: Readonly<Record<string, number>>;
}

/** The first records of a file, parsed as `detectFormat` sees them. */
export interface SessionSample {
  /** The whole file as one JSON value, when it is one. */
  readonly document?: unknown;
  /** The first JSON records of a JSON Lines file, when it is one. */
  readonly records?: readonly unknown[];
}

export interface SessionReader {
  /** What `--format` takes. */
  readonly name: string;
  /** One line for `--help`: whose log this is. */
  readonly description: string;
  /** Whether the sample looks like this format; readers are asked in `SESSION_READERS` order. */
  detect(sample: SessionSample): boolean;
  /** The messages, exactly as recorded; throws `SessionReadError` naming the line of what it cannot read. */
  read(source: SessionSource): SessionRead;
}

/** Counts what a reader leaves out, by kind. */
export class SkipCounter {
  private readonly counts: Record<string, number> = {};

  add(kind: string, count = 1): void {
    if (count > 0) this.counts[kind] = (this.counts[kind] ?? 0) + count;
  }

  get skipped(): Readonly<Record<string, number>> {
    return { ...this.counts };
  }
}
