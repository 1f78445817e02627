// Turns a file system failure around a journal into a ContextStoreAccessError that says what to do.
import { lstat } from "node:fs/promises";
import { ContextStoreAccessError } from "./errors.js";

const REASONS: Record<string, string> = {
  ENOTDIR: "a file is in the way of the folder; point storagePath at a folder",
  EEXIST: "a file is in the way of the folder; point storagePath at a folder",
  EACCES: "this process may not write there; choose a writable storagePath or fix its permissions",
  EPERM: "this process may not write there; choose a writable storagePath or fix its permissions",
  EROFS: "the file system is read-only; choose a writable storagePath",
  ELOOP: "it is a symbolic link, and ctxkit never follows a link to write a session; replace it with the real file",
  ENOSPC: "the disk is full; free space, then open the session again",
  ERR_INVALID_ARG_VALUE: "the path contains a NUL byte; remove it",
  ERR_INVALID_ARG_TYPE: "the path is not a string",
};

/** `error` as a ContextStoreAccessError about `path` when it is a known access failure; otherwise `error` itself. */
export function toAccessError(error: unknown, path: string): unknown {
  if (error instanceof ContextStoreAccessError) return error;
  const reason = REASONS[(error as NodeJS.ErrnoException | undefined)?.code ?? ""];
  return reason === undefined ? error : new ContextStoreAccessError(path, reason, { cause: error });
}

/** Refuses a journal path that exists but is not a regular file: a symbolic link, a folder, a FIFO. */
export async function assertRegularFileOrAbsent(file: string): Promise<void> {
  const stats = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw toAccessError(error, file);
  });
  if (stats === undefined || stats.isFile()) return;
  const what = stats.isSymbolicLink()
    ? "it is a symbolic link, and ctxkit never follows a link to read or write a session; replace it with the real file or remove it"
    : "it is not a regular file (a folder, a FIFO or a device); move it away";
  throw new ContextStoreAccessError(file, what);
}
