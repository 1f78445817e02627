// Signatures and encrypted content as the imitations issue them: each names the model (and, for OpenAI, the key) it
// was issued for and is sealed, so an imitation refuses a foreign, edited or made-up one as the services do.
import { createHash } from "node:crypto";

/** Who a token was issued to. */
export interface Binding {
  model: string;
  /** The API key of the request that got it (OpenAI binds encrypted content to the account). */
  key?: string;
}

function seal(text: string): string {
  return createHash("sha256").update(`imitation-seal:${text}`).digest("base64").slice(0, 16);
}

/**
 * `prefix` then base64 of the sealed binding and payload. The JSON is padded so the base64 ends in `==`, as real
 * signatures often do: a client that trims or re-encodes it breaks the seal.
 */
export function issueToken(prefix: string, binding: Binding, payload: string): string {
  const body = JSON.stringify({ model: binding.model, key: binding.key ?? null, payload });
  let sealed = JSON.stringify([body, seal(body)]);
  while (Buffer.byteLength(sealed) % 3 !== 1) sealed += " ";
  return `${prefix}${Buffer.from(sealed).toString("base64")}`;
}

/** The binding and payload of a token this module issued, or undefined for anything else (edited, made up, cut). */
export function readToken(prefix: string, token: unknown): { binding: Binding; payload: string } | undefined {
  if (typeof token !== "string" || !token.startsWith(prefix)) return undefined;
  try {
    const [body, tag] = JSON.parse(Buffer.from(token.slice(prefix.length), "base64").toString("utf8")) as [string, string];
    if (typeof body !== "string" || seal(body) !== tag) return undefined;
    const { model, key, payload } = JSON.parse(body) as { model: string; key: string | null; payload: string };
    return { binding: { model, ...(key === null ? {} : { key }) }, payload };
  } catch {
    return undefined;
  }
}

/** Whether `token` was issued to `binding` (the key compared when the binding names one). */
export function isIssuedTo(prefix: string, token: unknown, binding: Binding, payload?: string): boolean {
  const read = readToken(prefix, token);
  return (
    read !== undefined &&
    read.binding.model === binding.model &&
    read.binding.key === binding.key &&
    (payload === undefined || read.payload === payload)
  );
}

/** A short digest of a text, for a signature that covers it. */
export function digestOf(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}
