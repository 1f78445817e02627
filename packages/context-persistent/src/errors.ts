// The failures of a journal that a caller can act on, each with the file it concerns.
import { ContextError } from "@ctxkit/core";

/** context-persistent's error codes, beside core's. */
export type PersistentErrorCode = "CONTEXT_LOCKED" | "CONTEXT_STORE_CORRUPT" | "CONTEXT_STORE_ACCESS";

/**
 * The journal's folder or file cannot be used safely: it is not a folder, it cannot be written, or a
 * file in it is a symbolic link or not a regular file (ctxkit never follows a link to write a session).
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

/** A line before the last one cannot be read: the open stops, and the file is left exactly as it was. */
export class ContextStoreCorruptError extends ContextError {
  readonly file: string;
  /** 1-based, as an editor shows it. */
  readonly line: number;
  readonly reason: string;

  constructor(file: string, line: number, reason: string, options?: { cause?: unknown }) {
    super(
      "CONTEXT_STORE_CORRUPT",
      `The journal ${file} is corrupt at line ${line}: ${reason}. Nothing was changed. ` +
        `Repair or remove that line (or move the file away to start over), then open the session again.`,
      options,
    );
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}
export { ContextClosedError, type ClosedReason } from "@ctxkit/core";
