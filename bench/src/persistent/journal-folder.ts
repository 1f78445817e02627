// Temp folders for journal benchmarks, and a journal of a given session written the way a session writes it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPersistentContext } from "@ctxkit/context-persistent";
import type { Message } from "@ctxkit/core";

export async function withJournalFolder<T>(task: (folder: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), "ctxkit-bench-journal-"));
  try {
    return await task(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Writes `messages` as session `sessionId` (one atomic rewrite) and returns the journal's path. */
export async function writeJournal(folder: string, sessionId: string, messages: Message[]): Promise<string> {
  const manager = await createPersistentContext({ storagePath: folder, sessionId, tokenizer: "estimate" });
  await manager.setMessages(messages);
  await manager.close();
  return manager.location;
}
