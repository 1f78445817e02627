// Tool-call ids for providers that restrict them to letters, digits, "_" and "-" (Anthropic's ^[a-zA-Z0-9_-]+$).
//
// Other providers mint ids such as `functions.read_file:0`. An id that already fits passes unchanged; any other
// (and any that starts with the prefix, so decoding stays unambiguous) becomes the prefix plus the id with every
// character outside [a-zA-Z0-9-] written as "_" and four hex digits. The mapping is deterministic, so a prefix
// stays byte-stable across requests, and `decodeToolCallId` undoes it exactly.

const SAFE_ID = /^[a-zA-Z0-9_-]+$/;
const PREFIX = "ctxkit_";
const ESCAPED = /_([0-9a-f]{4})/g;
const UNSAFE_CHARACTER = /[^a-zA-Z0-9-]/g;
const DECODABLE = /^(?:[a-zA-Z0-9-]|_[0-9a-f]{4})*$/;

/** True when `id` fits `^[a-zA-Z0-9_-]+$`. */
export function isSafeToolCallId(id: string): boolean {
  return SAFE_ID.test(id);
}

/** An id that fits `^[a-zA-Z0-9_-]+$`, from any non-empty id; `decodeToolCallId` gives the original back. */
export function encodeToolCallId(id: string): string {
  if (SAFE_ID.test(id) && !id.startsWith(PREFIX)) return id;
  return PREFIX + id.replace(UNSAFE_CHARACTER, (character) => `_${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The original id of an encoded one; an id `encodeToolCallId` did not produce comes back unchanged. */
export function decodeToolCallId(id: string): string {
  if (!id.startsWith(PREFIX)) return id;
  const body = id.slice(PREFIX.length);
  if (!DECODABLE.test(body)) return id;
  return body.replace(ESCAPED, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
