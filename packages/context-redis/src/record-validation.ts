// What a Redis session's keys must hold to be read: each key's type, the meta counters, each state value's
// version and JSON. A key or value edited by hand is reported as `ContextStoreCorruptError` naming it.
import type { Message } from "@ctxkit/core";
import { ContextStoreCorruptError, parseDecodedMessage } from "@ctxkit/core/kit";

/**
 * Run first by every script, on the session's keys (KEYS[1] the meta hash, KEYS[2] the message list,
 * KEYS[3] the state hash): a key of another type, or a meta counter that is not a whole number, ends the
 * script with `{ 'corrupt', what, reason }` before it reads or writes anything.
 */
export const SESSION_CHECK_LUA = `
local function ctxkitCorruption()
  local expected = { 'hash', 'list', 'hash' }
  for index = 1, 3 do
    local kind = redis.call('TYPE', KEYS[index])['ok']
    if kind ~= 'none' and kind ~= expected[index] then
      return { 'corrupt', 'key ' .. KEYS[index], 'it is a ' .. kind .. ', not a ' .. expected[index] }
    end
  end
  for _, field in ipairs({ 'generation', 'stateVersion' }) do
    local value = redis.call('HGET', KEYS[1], field)
    if value and not string.match(value, '^%d+$') then
      return { 'corrupt', 'field ' .. field .. ' of ' .. KEYS[1], string.format('%q', string.sub(value, 1, 40)) .. ' is not a whole number' }
    end
  end
  return false
end
local ctxkitFound = ctxkitCorruption()
if ctxkitFound then return ctxkitFound end
`;

/** Checks what a script returned: a corruption it found becomes the typed error naming the key or field. */
export function checkScriptReply(reply: unknown, location: string): unknown {
  if (Array.isArray(reply) && reply[0] === "corrupt") throw corruption(location, String(reply[1]), String(reply[2]));
  return reply;
}

/** The error for a command the server refused because a key holds another type (`WRONGTYPE`), else undefined. */
export function wrongTypeCorruption(error: unknown, key: string, location: string): ContextStoreCorruptError | undefined {
  if (!(error instanceof Error) || !error.message.startsWith("WRONGTYPE")) return undefined;
  return corruption(location, `key ${key}`, "it holds another type than the store wrote there");
}

/** The sync script's reply, each part checked: a reply of another shape means the keys hold what this store did not write. */
export interface SyncReply {
  readonly generation: number;
  readonly stateVersion: number;
  readonly isReset: boolean;
  readonly bodies: readonly string[];
  readonly hasState: boolean;
  readonly fields: readonly string[];
  /** When the newest message was appended (epoch milliseconds); undefined when unknown. */
  readonly lastAddedAt: number | undefined;
}

export function parseSyncReply(reply: unknown, location: string): SyncReply {
  const parts = Array.isArray(reply) ? reply : [];
  const [generation, stateVersion, isReset, bodies, hasState, fields, lastAddedAtText] = parts as unknown[];
  const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
  const isTextList = (value: unknown): value is string[] => Array.isArray(value) && value.every((each) => typeof each === "string");
  if (!isCount(generation) || !isCount(stateVersion) || !isTextList(bodies) || !isTextList(fields) || fields.length % 2 !== 0)
    throw corruption(location, "session", "the server's answer to a read is not what the store's script returns");
  // A session a version without times wrote (or a server's older script) has no time: unknown.
  const lastAddedAt = typeof lastAddedAtText === "string" && lastAddedAtText !== "" ? Number(lastAddedAtText) : undefined;
  if (lastAddedAt !== undefined && !(Number.isSafeInteger(lastAddedAt) && lastAddedAt >= 0))
    throw corruption(
      location,
      "field lastAddedAt of the session's meta hash",
      `${JSON.stringify(lastAddedAtText)} is not a time in milliseconds since 1970`,
    );
  return { generation, stateVersion, isReset: isReset === 1, bodies, hasState: hasState === 1, fields, lastAddedAt };
}

/** A message of the list, checked as `addMessage` would check it; `seq` is its 1-based place. */
export function parseStoredMessage(body: string, seq: number, listKey: string, location: string): Message {
  try {
    return parseDecodedMessage(JSON.parse(body));
  } catch (error) {
    throw corruption(location, `message ${seq} (index ${seq - 1} of ${listKey})`, (error as Error).message, error);
  }
}

/** One state field (`strategy NUL key`) and its value (`<version> <json>`), checked. */
export function parseStateEntry(
  field: string,
  stored: string,
  stateKey: string,
  location: string,
): { readonly strategy: string; readonly key: string; readonly version: number; readonly value: unknown } {
  const separator = field.indexOf("\u0000");
  const name = separator === -1 ? field : `${field.slice(0, separator)}/${field.slice(separator + 1)}`;
  const what = `state ${name} (field of ${stateKey})`;
  if (separator === -1) throw corruption(location, what, "the field name has no NUL between strategy and key");
  const match = /^(\d+) ([\s\S]*)$/.exec(stored);
  const version = match === null ? Number.NaN : Number(match[1]);
  if (match === null || !Number.isSafeInteger(version) || version < 1)
    throw corruption(location, what, `the value must be "<version> <JSON>", a whole version of at least 1, a space, then JSON`);
  let value: unknown;
  try {
    value = JSON.parse(match[2]!);
  } catch (error) {
    throw corruption(location, what, (error as Error).message, error);
  }
  return { strategy: field.slice(0, separator), key: field.slice(separator + 1), version, value };
}

function corruption(location: string, entry: string, reason: string, cause?: unknown): ContextStoreCorruptError {
  return new ContextStoreCorruptError(location, { entry }, reason, cause === undefined ? undefined : { cause });
}
