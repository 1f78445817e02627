// The real agent transcripts in ../shared/data/transcripts (beside the repository), when they are there.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ContextValidationError, type Message, parseMessage } from "@ctxkit/core";

export const TRANSCRIPTS_FOLDER = fileURLToPath(new URL("../../../../shared/data/transcripts/", import.meta.url));

/** A transcript line that is not JSON or not a message; its message is one line naming the file and line. */
export class TranscriptLineError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly problem: string,
  ) {
    super(`${file}:${line}: ${problem}`);
    this.name = "TranscriptLineError";
  }
}

export interface TranscriptOptions {
  /** Default: TRANSCRIPTS_FOLDER. */
  readonly folder?: string;
  /** Where a skipped transcript is reported, one line each. Default: stderr. */
  readonly report?: (line: string) => void;
}

const loaded = new Map<string, Message[]>();

/**
 * File names of every transcript, sorted; empty when the folder is absent. A transcript with a bad line
 * (not JSON, or not a message) is skipped, not fatal: one line on stderr names its file, the line and what
 * is wrong, and the benchmarks run on the others. Each one is read here once, so the check costs no
 * second read in this process.
 */
export function listTranscripts(options: TranscriptOptions = {}): string[] {
  const folder = options.folder ?? TRANSCRIPTS_FOLDER;
  const report = options.report ?? ((line: string) => void process.stderr.write(`${line}\n`));
  if (!existsSync(folder)) return [];
  const files = readdirSync(folder)
    .filter((file) => file.endsWith(".jsonl"))
    .sort();
  return files.filter((file) => {
    try {
      readTranscript(file, folder);
      return true;
    } catch (error) {
      if (!(error instanceof TranscriptLineError)) throw error;
      report(`bench: skipped transcript ${error.message}`);
      return false;
    }
  });
}

/** The transcript's messages; a bad line throws `TranscriptLineError`. */
export function readTranscript(file: string, folder = TRANSCRIPTS_FOLDER): Message[] {
  const path = join(folder, file);
  const cached = loaded.get(path);
  if (cached !== undefined) return cached;
  const messages: Message[] = [];
  for (const [position, line] of readFileSync(path, "utf8").split("\n").entries()) {
    if (line.trim().length === 0) continue;
    messages.push(parseLine(line, path, position + 1));
  }
  loaded.set(path, messages);
  return messages;
}

function parseLine(line: string, path: string, lineNumber: number): Message {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new TranscriptLineError(path, lineNumber, `not valid JSON (${(error as Error).message})`);
  }
  try {
    return parseMessage(value);
  } catch (error) {
    if (!(error instanceof ContextValidationError)) throw error;
    const issues = error.issues.map((issue) => `${issue.path || "(root)"}: ${issue.message}`).join("; ");
    throw new TranscriptLineError(path, lineNumber, `not a message (${issues.replace(/\s*\n\s*/g, " ")})`);
  }
}

/** The transcript's name without its extension, for table rows. */
export function transcriptLabel(file: string): string {
  return file.replace(/\.jsonl$/, "");
}
