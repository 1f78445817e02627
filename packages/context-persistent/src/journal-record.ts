// The journal's records, one JSON object per line, each carrying the format version it was written in.
import { ContextValidationError, type Message } from "@ctxkit/core";
import { parseDecodedMessage } from "@ctxkit/core/kit";
import type { StateChange } from "./message-store.js";

export const FORMAT_VERSION = 1;

/** The first line of a file that `setMessages` or `clear` rewrote. */
export interface HeaderRecord {
  readonly type: "header";
  readonly sessionId: string;
  readonly rewrittenAt: string;
  readonly reason: "set" | "clear";
}

/** A message; `addedAt` (the line's `at`, epoch milliseconds) is when it was appended, absent in lines a rewrite or an older version wrote. */
export interface AddRecord {
  readonly type: "add";
  readonly message: Message;
  readonly addedAt?: number;
}

export type JournalRecord = HeaderRecord | AddRecord | ({ readonly type: "state" } & StateChange);

/**
 * One line, without its newline. JSON escapes every newline inside strings, so a record is one line. `at`
 * is an optional field, so a version that does not know it reads the line as before.
 */
export function encodeAdd(message: Message, addedAt?: number): string {
  const at = addedAt === undefined ? "" : `"at":${addedAt},`;
  return `{"v":${FORMAT_VERSION},"type":"add",${at}"message":${JSON.stringify(message)}}`;
}

export function encodeState(change: StateChange): string {
  return JSON.stringify({ v: FORMAT_VERSION, type: "state", ...change });
}

export function encodeHeader(header: Omit<HeaderRecord, "type">): string {
  return JSON.stringify({ v: FORMAT_VERSION, type: "header", ...header });
}

/** Reads one line; throws an `Error` whose message says what is wrong with it. */
export function decodeRecord(line: string): JournalRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new Error(`not valid JSON (${(error as Error).message})`, { cause: error });
  }
  if (!isObject(value)) throw new Error("not a JSON object");
  if (value.v !== FORMAT_VERSION) {
    throw new Error(
      typeof value.v === "number" && value.v > FORMAT_VERSION
        ? `written in format version ${value.v}, newer than this package reads (${FORMAT_VERSION}); upgrade @ctxkit/context-persistent`
        : `unknown format version ${JSON.stringify(value.v)}`,
    );
  }
  switch (value.type) {
    case "add":
      return checkAdd(value);
    case "state":
      return checkState(value);
    case "header":
      return checkHeader(value);
    default:
      throw new Error(`unknown record type ${JSON.stringify(value.type)}`);
  }
}

/**
 * The full check `addMessage` makes (core's schema, JSON data only, the nesting limit), so a journal
 * line that `addMessage` would refuse stops the open instead of breaking every later request.
 */
function checkMessage(message: unknown): Message {
  try {
    return parseDecodedMessage(message);
  } catch (error) {
    if (!(error instanceof ContextValidationError)) throw error;
    const [first] = error.issues;
    throw new Error(`a message that addMessage would refuse (${first?.path || "message"}: ${first?.message ?? "invalid"})`, {
      cause: error,
    });
  }
}

function checkAdd(value: Record<string, unknown>): AddRecord {
  const message = checkMessage(value.message);
  if (value.at === undefined) return { type: "add", message };
  if (typeof value.at !== "number" || !Number.isSafeInteger(value.at) || value.at < 0)
    throw new Error(`an add record whose "at" is ${JSON.stringify(value.at)}, not a time in milliseconds since 1970`);
  return { type: "add", message, addedAt: value.at };
}

function checkState(value: Record<string, unknown>): JournalRecord {
  if (typeof value.strategy !== "string" || typeof value.key !== "string") throw new Error("a state record without strategy and key");
  if (value.deleted === true) return { type: "state", strategy: value.strategy, key: value.key, deleted: true };
  if (!("value" in value)) throw new Error("a state record without a value");
  return { type: "state", strategy: value.strategy, key: value.key, value: value.value };
}

/** A header edited by hand would otherwise pass unread: its fields are checked like any other record's. */
function checkHeader(value: Record<string, unknown>): HeaderRecord {
  if (typeof value.sessionId !== "string") throw new Error("a header record without its sessionId");
  if (typeof value.rewrittenAt !== "string") throw new Error("a header record without rewrittenAt");
  if (value.reason !== "set" && value.reason !== "clear")
    throw new Error(`a header record whose reason is ${JSON.stringify(value.reason)}, not "set" or "clear"`);
  return { type: "header", sessionId: value.sessionId, rewrittenAt: value.rewrittenAt, reason: value.reason };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
