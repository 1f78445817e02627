// Which reader a session file needs, from its first records; `--format` names one instead.
import { aiSdkMessages } from "./ai-sdk-messages.js";
import { anthropicMessages } from "./anthropic-messages.js";
import { canonicalJsonl } from "./canonical-jsonl.js";
import { claudeCode } from "./claude-code.js";
import { codexRollout } from "./codex-rollout.js";
import { geminiContents } from "./gemini-contents.js";
import { openaiChat } from "./openai-chat.js";
import { openaiResponses } from "./openai-responses.js";
import { openhandsEvents } from "./openhands-events.js";
import { piSession } from "./pi-session.js";
import { SessionReadError } from "./session-read-error.js";
import type { SessionReader, SessionSample, SessionSource } from "./session-reader.js";

/**
 * Every reader, in the order `detectFormat` asks them: the agents' logs first, then the request shapes from
 * the most particular (Responses items, Anthropic blocks, AI SDK parts) to plain Chat messages, which fit
 * every exchange of text alone.
 */
export const SESSION_READERS: readonly SessionReader[] = [
  claudeCode,
  codexRollout,
  piSession,
  openhandsEvents,
  canonicalJsonl,
  geminiContents,
  openaiResponses,
  anthropicMessages,
  aiSdkMessages,
  openaiChat,
];

/** How many JSON Lines records `detectFormat` looks at. */
const SAMPLE_RECORDS = 20;

export const FORMAT_NAMES: readonly string[] = SESSION_READERS.map((reader) => reader.name);

/** The reader `--format` names, or undefined. */
export function findReader(name: string): SessionReader | undefined {
  return SESSION_READERS.find((reader) => reader.name === name);
}

/** The file's first records, as JSON Lines and as one document, whichever it parses as. */
export function sampleOf(source: SessionSource): SessionSample {
  let document: unknown;
  let isDocument = false;
  try {
    document = JSON.parse(source.text);
    isDocument = true;
  } catch {
    // Not one JSON value: perhaps JSON Lines.
  }
  const records: unknown[] = [];
  for (const line of source.text.split("\n")) {
    if (records.length >= SAMPLE_RECORDS) break;
    if (line.trim() === "") continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      // A line that is not a whole record: the file is not JSON Lines (or it is cut); the readers report it.
      if (!isDocument) break;
      return { document };
    }
  }
  // A one-line JSON document is also a one-record JSON Lines file: both are offered.
  if (!isDocument) return records.length === 0 ? {} : { records };
  return records.length === 1 ? { document, records } : { document };
}

/** The reader whose format the file's first records fit; a `SessionReadError` naming the formats when none does. */
export function detectFormat(source: SessionSource): SessionReader {
  const sample = sampleOf(source);
  const reader = SESSION_READERS.find((candidate) => candidate.detect(sample));
  if (reader !== undefined) return reader;
  throw new SessionReadError(
    source.file,
    0,
    sample.document === undefined && sample.records === undefined
      ? "neither JSON nor JSON Lines"
      : "its format was not recognized from its first records",
    `Pass --format with one of: ${FORMAT_NAMES.join(", ")}`,
  );
}
