// The messages nearly every caller sends, read without the message schema: a fresh process that adds only such
// messages never builds zod's eighty-odd schema objects for them, a few milliseconds of a cold start.
//
// `readOrdinaryMessage` returns what `messageSchema.safeParse(input).data` would be, built the way zod builds it:
// each object's schema keys first, in the schema's order, then its other keys as a `for…in` gives them. On anything
// it does not take (metadata, a wrong type, an empty id, a part in another SDK's shape) it returns undefined and the
// schema decides, so every refusal still comes from the schema with its own message. ordinary-message.test.ts
// checks on generated messages that both agree.

import { FOREIGN_TOOL_PARTS } from "./message-schema.js";

/** Returned by a reader for a value it does not take. */
const NOT_ORDINARY = Symbol("not ordinary");
type Reader = (value: unknown) => unknown;
/** An object's schema keys in the schema's order: the key, how its value is read, and whether it may be absent. */
type Fields = readonly (readonly [key: string, read: Reader, optional: boolean])[];

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

const readString: Reader = (value) => (typeof value === "string" ? value : NOT_ORDINARY);
const readNonEmptyString: Reader = (value) => (typeof value === "string" && value.length > 0 ? value : NOT_ORDINARY);
const readBoolean: Reader = (value) => (typeof value === "boolean" ? value : NOT_ORDINARY);
const readLiteral =
  (literal: string): Reader =>
  (value) =>
    value === literal ? value : NOT_ORDINARY;

/** A loose object as zod builds it: the schema's keys in order, then every other key (but `__proto__`) as given. */
function readObject(value: unknown, fields: Fields, keys: ReadonlySet<string>): Record<string, unknown> | typeof NOT_ORDINARY {
  if (!isPlainRecord(value)) return NOT_ORDINARY;
  const read: Record<string, unknown> = {};
  for (const [key, readValue, optional] of fields) {
    if (!(key in value)) {
      if (optional) continue;
      return NOT_ORDINARY;
    }
    const fieldValue = readValue(value[key]);
    if (fieldValue === NOT_ORDINARY) return NOT_ORDINARY;
    read[key] = fieldValue;
  }
  for (const key in value) {
    // zod leaves an own `__proto__` key out; the schema handles such an input.
    if (key === "__proto__") return NOT_ORDINARY;
    if (!keys.has(key)) read[key] = value[key];
  }
  return read;
}

function objectReader(fields: Fields): Reader {
  const keys = new Set(fields.map(([key]) => key));
  return (value) => readObject(value, fields, keys);
}

const readTextPart = objectReader([
  ["type", readLiteral("text"), false],
  ["text", readString, false],
]);
const readImageUrlPart = objectReader([
  ["type", readLiteral("image_url"), false],
  ["image_url", objectReader([["url", readString, false]]), false],
]);
const readOtherPart = objectReader([["type", readNonEmptyString, false]]);

function readPart(value: unknown): unknown {
  if (!isPlainRecord(value)) return NOT_ORDINARY;
  const type = value.type;
  if (type === "text") return readTextPart(value);
  if (type === "image_url") return readImageUrlPart(value);
  // A part in another SDK's shape is refused by the schema, with the adapter that converts it.
  return typeof type === "string" && !Object.hasOwn(FOREIGN_TOOL_PARTS, type) ? readOtherPart(value) : NOT_ORDINARY;
}

function readArray(value: unknown, readItem: Reader, minLength: number): unknown[] | typeof NOT_ORDINARY {
  if (!Array.isArray(value) || value.length < minLength) return NOT_ORDINARY;
  const read: unknown[] = [];
  for (let index = 0; index < value.length; index++) {
    const item = readItem(value[index]);
    if (item === NOT_ORDINARY) return NOT_ORDINARY;
    read.push(item);
  }
  return read;
}

const readContent: Reader = (value) => (typeof value === "string" ? value : readArray(value, readPart, 0));
const readNullableContent: Reader = (value) => (value === null ? null : readContent(value));

const readToolCall = objectReader([
  ["id", readNonEmptyString, false],
  ["type", readLiteral("function"), false],
  [
    "function",
    objectReader([
      ["name", readNonEmptyString, false],
      ["arguments", readString, false],
    ]),
    false,
  ],
]);

/** A non-empty list of tool calls with distinct ids, as the assistant schema's refinement requires. */
const readToolCalls: Reader = (value) => {
  const calls = readArray(value, readToolCall, 1);
  if (calls === NOT_ORDINARY) return NOT_ORDINARY;
  const ids = new Set(calls.map((call) => (call as { id: string }).id));
  return ids.size === calls.length ? calls : NOT_ORDINARY;
};

// `metadata` is left to the schema: it is read as not ordinary wherever it appears.
const readNoMetadata: Reader = () => NOT_ORDINARY;
const COMMON: Fields = [
  ["name", readString, true],
  ["metadata", readNoMetadata, true],
];

const ROLE_READERS: Readonly<Record<string, Reader>> = {
  system: objectReader([["role", readLiteral("system"), false], ["content", readContent, false], ...COMMON]),
  developer: objectReader([["role", readLiteral("developer"), false], ["content", readContent, false], ...COMMON]),
  user: objectReader([["role", readLiteral("user"), false], ["content", readContent, false], ...COMMON]),
  assistant: objectReader([
    ["role", readLiteral("assistant"), false],
    ["content", readNullableContent, false],
    ["tool_calls", readToolCalls, true],
    ...COMMON,
  ]),
  tool: objectReader([
    ["role", readLiteral("tool"), false],
    ["content", readContent, false],
    ["tool_call_id", readNonEmptyString, false],
    ["is_error", readBoolean, true],
    ...COMMON,
  ]),
};

/**
 * What the message schema's `safeParse(input).data` would be, when `input` is an ordinary message (plain objects,
 * no metadata, every field of its type); otherwise undefined, and the schema must decide.
 */
export function readOrdinaryMessage(input: unknown): Record<string, unknown> | undefined {
  if (!isPlainRecord(input)) return undefined;
  const role = input.role;
  const read = typeof role === "string" && Object.hasOwn(ROLE_READERS, role) ? ROLE_READERS[role]!(input) : NOT_ORDINARY;
  if (read === NOT_ORDINARY) return undefined;
  // An assistant message's content may be null only when it calls tools.
  const message = read as Record<string, unknown>;
  if (message.role === "assistant" && message.content === null && message.tool_calls === undefined) return undefined;
  return message;
}
