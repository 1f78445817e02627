// The journal's records, one JSON object per line, each carrying the format version it was written in.
import type { Message } from "@ctxkit/core";
import type { StateChange } from "./message-store.js";

export const FORMAT_VERSION = 1;

/** The first line of a file that `setMessages` or `clear` rewrote. */
export interface HeaderRecord {
  readonly type: "header";
  readonly sessionId: string;
  readonly rewrittenAt: string;
  readonly reason: "set" | "clear";
}

export type JournalRecord = HeaderRecord | { readonly type: "add"; readonly message: Message } | ({ readonly type: "state" } & StateChange);

/** One line, without its newline. JSON escapes every newline inside strings, so a record is one line. */
export function encodeAdd(message: Message): string {
  return `{"v":${FORMAT_VERSION},"type":"add","message":${JSON.stringify(message)}}`;
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
      return { type: "add", message: checkMessage(value.message) };
    case "state":
      return checkState(value);
    case "header":
      return value as unknown as HeaderRecord;
    default:
      throw new Error(`unknown record type ${JSON.stringify(value.type)}`);
  }
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

/**
 * A shape check, not the full schema: every message was validated in full when it was added, and
 * validating again at open would double the time to resume. This catches what a hand edit or a foreign
 * file would break: the fields a view is built from.
 */
function checkMessage(message: unknown): Message {
  if (!isObject(message)) throw new Error("an add record without a message object");
  if (typeof message.role !== "string" || !ROLES.has(message.role)) throw new Error(`a message with an unknown role ${JSON.stringify(message.role)}`);
  const content = message.content;
  const isContent = typeof content === "string" || Array.isArray(content) || (content === null && message.role === "assistant");
  if (!isContent) throw new Error(`a ${message.role} message without valid content`);
  if (message.tool_calls !== undefined && !(Array.isArray(message.tool_calls) && message.tool_calls.every(isToolCall))) {
    throw new Error("a message with malformed tool_calls");
  }
  if (message.role === "tool" && typeof message.tool_call_id !== "string") throw new Error("a tool message without tool_call_id");
  return message as unknown as Message;
}

function isToolCall(call: unknown): boolean {
  return isObject(call) && typeof call.id === "string" && isObject(call.function) && typeof call.function.name === "string" && typeof call.function.arguments === "string";
}

function checkState(value: Record<string, unknown>): JournalRecord {
  if (typeof value.strategy !== "string" || typeof value.key !== "string") throw new Error("a state record without strategy and key");
  if (value.deleted === true) return { type: "state", strategy: value.strategy, key: value.key, deleted: true };
  if (!("value" in value)) throw new Error("a state record without a value");
  return { type: "state", strategy: value.strategy, key: value.key, value: value.value };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
