// Makes a journal's end clean before anything is appended to it: a torn record cut off, a last line ended.
import { open } from "node:fs/promises";
import type { JournalContents } from "./read-journal.js";
import { writeAll } from "./write-all.js";

/**
 * A record appended after torn bytes, or after a last line that lacks its newline, would make one
 * corrupt middle line of the two; so the torn bytes are cut (they were never acknowledged) or the line
 * is ended, and the change is fsynced before any append.
 */
export async function mendJournalTail(file: string, contents: JournalContents): Promise<void> {
  if (contents.droppedBytes === 0 && !contents.lacksFinalNewline) return;
  const handle = await open(file, "r+");
  try {
    if (contents.droppedBytes > 0) await handle.truncate(contents.validLength);
    else await writeAll(handle, "\n", contents.validLength);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
