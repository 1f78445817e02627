// Writes a whole text through a file handle: a single write may take only part of it.
import type { FileHandle } from "node:fs/promises";

/** Writes at the handle's position, or at `position` in the file when given. */
export async function writeAll(handle: FileHandle, text: string, position?: number): Promise<void> {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    const at = position === undefined ? null : position + offset;
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, at);
    offset += bytesWritten;
  }
}
