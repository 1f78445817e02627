// The failures of a store that a caller can act on, one class per code, shared by every backend.
import { ContextArgumentError, ContextError } from "../errors.js";

/**
 * A store's folder or file cannot be used safely: it is not a folder, it cannot be written, or a file in
 * it is a symbolic link or not a regular file (ctxkit never follows a link to write a session).
 */
export class ContextStoreAccessError extends ContextError {
  /** The folder or file concerned. */
  readonly path: string;
  readonly reason: string;

  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super("CONTEXT_STORE_ACCESS", `Cannot use ${JSON.stringify(path)} for a session: ${reason}`, options);
    this.path = path;
    this.reason = reason;
  }
}

/** Who holds a session's lock, as written in its lock file. */
export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
}

/** Another live writer holds the session: one process writes a session at a time. */
export class ContextLockedError extends ContextError {
  readonly file: string;
  readonly lockFile: string;
  readonly owner: LockOwner | undefined;

  constructor(file: string, lockFile: string, owner: LockOwner | undefined) {
    const holder = owner === undefined ? "another writer" : `process ${owner.pid} on ${owner.hostname}`;
    super(
      "CONTEXT_LOCKED",
      `The session ${file} is open in ${holder}. Close it there first; if that process is gone for good, delete ${lockFile}.`,
    );
    this.file = file;
    this.lockFile = lockFile;
    this.owner = owner;
  }
}

/** Where in a store the unreadable record is: a journal's line, a table row's sequence number, or a named entry (`message 2`, `state summary/checkpoint`). */
export type CorruptRecord = { readonly line: number } | { readonly seq: number } | { readonly entry: string };

/**
 * A stored record cannot be read back as what was written (a journal line before the last, a table
 * row): the open or sync stops, and nothing is changed.
 */
export class ContextStoreCorruptError extends ContextError {
  /** Where the session lives (a journal file, a table and session). */
  readonly location: string;
  /** The journal line, 1-based as an editor shows it; undefined for a table. */
  readonly line: number | undefined;
  /** The row's sequence number; undefined for a journal. */
  readonly seq: number | undefined;
  /** The entry named, for a store that names its entries (`message 2`, `state summary/checkpoint`). */
  readonly entry: string | undefined;
  readonly reason: string;

  constructor(location: string, record: CorruptRecord, reason: string, options?: { cause?: unknown }) {
    super(
      "CONTEXT_STORE_CORRUPT",
      "line" in record
        ? `The journal ${location} is corrupt at line ${record.line}: ${reason}. Nothing was changed. ` +
            `Repair or remove that line (or move the file away to start over), then open the session again.`
        : "seq" in record
          ? `The session ${location} holds an unreadable message at seq ${record.seq}: ${reason}. Nothing was changed; repair or delete that row.`
          : `The session ${location} holds an unreadable ${record.entry}: ${reason}. Nothing was changed; repair or delete that entry.`,
      options,
    );
    this.location = location;
    this.line = "line" in record ? record.line : undefined;
    this.seq = "seq" in record ? record.seq : undefined;
    this.entry = "entry" in record ? record.entry : undefined;
    this.reason = reason;
  }

  /** The journal file, for a file store: the same as `location`. */
  get file(): string {
    return this.location;
  }
}

/**
 * The store's server could not be reached, or the connection dropped during an operation. The
 * operation's transaction was rolled back: nothing of it was written.
 */
export class ContextStoreUnavailableError extends ContextError {
  readonly location: string;

  /** `detail`, when a store knows more than its driver's message, says what happened and what to do instead. */
  constructor(location: string, options?: { cause?: unknown; detail?: string }) {
    const cause = options?.cause instanceof Error ? options.cause.message : String(options?.cause);
    super(
      "CONTEXT_STORE_UNAVAILABLE",
      options?.detail === undefined
        ? `The session ${location} could not be written or read (${cause}); nothing of that operation was stored. ` +
            `Check that the server is reachable, then open the session again.`
        : `The session ${location} could not be written or read: ${options.detail}. Nothing of that operation was stored.`,
      { cause: options?.cause },
    );
    this.location = location;
  }
}

/** The typed error of a store call made out of order (opened twice, written before it was loaded): `ContextArgumentError` naming `this`. */
export function misusedStore(operation: string, problem: string): ContextArgumentError {
  return new ContextArgumentError(operation, [{ path: "this", message: problem }]);
}
