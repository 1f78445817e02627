// The failures of a persistent session that a caller can act on, each with the file it concerns.
import { ContextError } from "@ctxkit/core";

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

export type ClosedReason = "closed" | "write_failed";

/**
 * The session no longer accepts operations: it was closed, or a write or fsync failed, so its memory
 * may be ahead of its file. Either way the cure is to open the session again, from what is on disk.
 */
export class ContextClosedError extends ContextError {
  readonly file: string;
  readonly reason: ClosedReason;

  constructor(file: string, reason: ClosedReason, options?: { cause?: unknown }) {
    const what =
      reason === "closed"
        ? `The session ${file} is closed.`
        : `The session ${file} stopped because a write to it failed (${describe(options?.cause)}); ` +
          `messages may be in memory that are not on disk.`;
    super("CONTEXT_CLOSED", `${what} Open it again with createPersistentContext to continue from what is on disk.`, options);
    this.file = file;
    this.reason = reason;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
