// Replaces a file so that a crash at any moment leaves either the old content or the new, never a mix.
import { constants } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { writeAll } from "./write-all.js";

/** Large rewrites are written in pieces of about this many characters, never as one giant string. */
const CHUNK_CHARACTERS = 1 << 20;

const STAGING_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Journals hold conversations, tool outputs and often secrets: only their owner may read them. */
export const JOURNAL_MODE = 0o600;

/** Where a rewrite is staged; a crash can leave it behind, and the next rewrite or open removes it. */
export function rewriteFileFor(file: string): string {
  return `${file}.rewrite`;
}

/**
 * Writes `lines` (each followed by a newline) to a temp file beside `file`, fsyncs it, renames it over
 * `file`, then fsyncs the folder so the rename itself survives a power loss.
 */
export async function rewriteAtomically(file: string, lines: Iterable<string>): Promise<void> {
  const temporary = rewriteFileFor(file);
  // Whatever a crash (or anyone) left at the staging name goes first: rm removes a link, never its target.
  await rm(temporary, { force: true });
  try {
    // Created here and now, never through a link: a planted link cannot make a rewrite overwrite its target.
    // The rename keeps the staged file's mode, so it is created with the journal's.
    const handle = await open(temporary, STAGING_FLAGS, JOURNAL_MODE);
    try {
      let chunk = "";
      for (const line of lines) {
        chunk += `${line}\n`;
        if (chunk.length >= CHUNK_CHARACTERS) {
          await writeAll(handle, chunk);
          chunk = "";
        }
      }
      if (chunk.length > 0) await writeAll(handle, chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
  await syncDirectory(dirname(file));
}

/** Makes a folder's entries (a created or renamed file) durable. */
export async function syncDirectory(directory: string): Promise<void> {
  // Windows cannot open a folder as a file, and its file system journals renames itself.
  if (process.platform === "win32") return;
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
