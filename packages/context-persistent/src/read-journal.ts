// Reads a journal once, at open: the history and strategy state it holds, and where its last whole record ends.
import { readFile } from "node:fs/promises";
import type { Message } from "@ctxkit/core";
import { ContextStoreCorruptError } from "./errors.js";
import { decodeRecord, type JournalRecord } from "./journal-record.js";

const NEWLINE = 0x0a;
const BLANK = /^\s*$/;

export interface JournalContents {
  /** False when there is no file yet: a new session. */
  readonly exists: boolean;
  readonly messages: Message[];
  readonly state: Map<string, Map<string, unknown>>;
  /** Bytes up to the end of the last whole record. */
  readonly validLength: number;
  /** Bytes after it: a final record torn by a crash mid-write, never acknowledged to a caller. */
  readonly droppedBytes: number;
  /** The last record is whole but its newline is missing (a crash just before it, or a hand-made file). */
  readonly lacksFinalNewline: boolean;
  /** When the newest message was appended; absent when its line has no time (a rewrite's, or an older version's). */
  readonly lastAddedAt?: number;
}

/**
 * Only the bytes after the last newline can be a torn write: records are appended whole and every one
 * ends with a newline. Those bytes are kept when they hold a whole record (a cut JSON object never
 * parses, since its closing brace comes last), and dropped otherwise. Any bad line before them is
 * corruption, reported with its line number, and the file is not touched.
 */
export async function readJournal(file: string): Promise<JournalContents> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return { exists: false, messages: [], state: new Map(), validLength: 0, droppedBytes: 0, lacksFinalNewline: false };
    }
    throw error;
  }
  const wholeLines = bytes.lastIndexOf(NEWLINE) + 1;
  const messages: Message[] = [];
  const state = new Map<string, Map<string, unknown>>();
  let lastAddedAt: number | undefined;
  let start = 0;
  let line = 0;
  while (start < wholeLines) {
    const end = bytes.indexOf(NEWLINE, start);
    line += 1;
    // Decoding line by line keeps a journal larger than the longest string V8 allows readable.
    const text = bytes.toString("utf8", start, end);
    start = end + 1;
    if (BLANK.test(text)) continue;
    let record;
    try {
      record = decodeRecord(text);
    } catch (error) {
      throw new ContextStoreCorruptError(file, { line }, (error as Error).message, { cause: error });
    }
    apply(record, line);
  }
  const tail = decodeTail(bytes.toString("utf8", wholeLines));
  if (tail !== undefined) apply(tail, line + 1);
  const validLength = tail === undefined ? wholeLines : bytes.length;
  const droppedBytes = bytes.length - validLength;
  const times = lastAddedAt === undefined ? {} : { lastAddedAt };
  return { exists: true, messages, state, validLength, droppedBytes, lacksFinalNewline: tail !== undefined, ...times };

  function apply(record: JournalRecord, line: number): void {
    if (record.type === "add") {
      messages.push(record.message);
      lastAddedAt = record.addedAt;
    } else if (record.type === "state") {
      const values = state.get(record.strategy) ?? new Map<string, unknown>();
      state.set(record.strategy, values);
      if ("deleted" in record) values.delete(record.key);
      else values.set(record.key, record.value);
    } else if (line !== 1) {
      throw new ContextStoreCorruptError(file, { line }, "a header record after the first line (were two journals joined?)");
    }
  }
}

/** The record in the bytes after the last newline, if they hold a whole one. */
function decodeTail(text: string): JournalRecord | undefined {
  if (BLANK.test(text)) return undefined;
  try {
    const record = decodeRecord(text);
    // A header names a rewritten file's first line; at the tail it can only be damage.
    return record.type === "header" ? undefined : record;
  } catch {
    return undefined;
  }
}
