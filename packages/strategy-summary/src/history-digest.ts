// Digests of history prefixes: how a checkpoint proves it still describes the history it is applied to.
import type { Message } from "@ctxkit/core";
import { type Sha256, createSha256 } from "./sha256.js";

/**
 * Feeds `value` to `hash` field by field, with object keys sorted, so a message reloaded from a
 * journal digests like the one first stored. Strings go in as they are, length first, so a large
 * tool output is hashed without being copied into a JSON string.
 */
function updateWithValue(hash: Sha256, value: unknown): void {
  if (typeof value === "string") {
    hash.update(`s${value.length}:`).update(value);
  } else if (value === null || typeof value !== "object") {
    hash.update(`v${JSON.stringify(value) ?? "undefined"};`);
  } else if (Array.isArray(value)) {
    hash.update(`a${value.length}[`);
    for (const item of value) updateWithValue(hash, item);
    hash.update("]");
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    hash.update(`o${keys.length}{`);
    for (const key of keys) {
      hash.update(`k${key.length}:${key}`);
      updateWithValue(hash, record[key]);
    }
    hash.update("}");
  }
}

// Stored messages are frozen and never change, so each is hashed once per process.
const messageDigests = new WeakMap<Message, string>();

function digestMessage(message: Message): string {
  let digest = messageDigests.get(message);
  if (digest === undefined) {
    const hash = createSha256();
    updateWithValue(hash, message);
    digest = hash.digest("base64url");
    if (Object.isFrozen(message)) messageDigests.set(message, digest);
  }
  return digest;
}

/**
 * The digest of `history[0..index]` for each of `indices` (each below `history.length`), in one pass.
 * It depends only on those messages, never on how earlier checkpoints were cut.
 */
export function digestPrefixes(history: readonly Message[], indices: Iterable<number>): Map<number, string> {
  const wanted = new Set(indices);
  const digests = new Map<number, string>();
  if (wanted.size === 0) return digests;
  const last = Math.max(...wanted);
  const hash = createSha256();
  for (let index = 0; index <= last && index < history.length; index += 1) {
    hash.update(digestMessage(history[index]!));
    if (wanted.has(index)) digests.set(index, hash.copy().digest("base64url").slice(0, 22));
  }
  return digests;
}
