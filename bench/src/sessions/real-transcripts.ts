// The real agent transcripts in ../shared/data/transcripts (beside the repository), when they are there.
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Message } from "@ctxkit/core";
import { readMessagesFile } from "@ctxkit/core/testing";

export const TRANSCRIPTS_FOLDER = fileURLToPath(new URL("../../../../shared/data/transcripts/", import.meta.url));

/** File names of every transcript, sorted; empty when the folder is absent. */
export function listTranscripts(): string[] {
  if (!existsSync(TRANSCRIPTS_FOLDER)) return [];
  return readdirSync(TRANSCRIPTS_FOLDER)
    .filter((file) => file.endsWith(".jsonl"))
    .sort();
}

export function readTranscript(file: string): Message[] {
  return readMessagesFile(`${TRANSCRIPTS_FOLDER}${file}`);
}

/** The transcript's name without its extension, for table rows. */
export function transcriptLabel(file: string): string {
  return file.replace(/\.jsonl$/, "");
}
