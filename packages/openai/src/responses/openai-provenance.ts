// OpenAI's side of the provenance policy: encrypted reasoning and compaction items go back only to the model and
// account that issued them.
import type { Message } from "@ctxkit/core";
import { applyProvenancePolicy, type Provenance } from "@ctxkit/core/kit";

export const OPENAI_PROVIDER = "openai";

/** The model (and account) a Responses request goes to. */
export interface ResponsesTarget {
  model: string;
  /** The account's fingerprint (`accountOf(client)`); compared only when the provenance names one too. */
  account?: string;
}

/** The provenance of a Responses output: OpenAI, the model the response names, and the account when known. */
export function openAIProvenance(model: string, account?: string): Provenance {
  return { provider: OPENAI_PROVIDER, model, ...(account === undefined ? {} : { account }) };
}

/**
 * The view as `target` may receive it (see `applyProvenancePolicy`): reasoning items and compaction items (and
 * other providers' thinking) that another model or account produced are left out, whole; encrypted content is
 * never said in words. Without a target, the view as it is.
 */
export function forResponsesModel(view: readonly Message[], target: ResponsesTarget | undefined): Message[] {
  return applyProvenancePolicy(view, { target: target === undefined ? undefined : { provider: OPENAI_PROVIDER, ...target } });
}

/**
 * The account behind a client, as a provenance names it: `key:` and the first 16 hex digits of the SHA-256 of its API
 * key (OpenAI binds encrypted content to the key's organization; the key itself is never stored). Undefined for a
 * client with no key at hand.
 */
export async function accountOf(client: object): Promise<string | undefined> {
  const key = (client as { apiKey?: unknown }).apiKey;
  const subtle = globalThis.crypto?.subtle;
  if (typeof key !== "string" || key === "" || subtle === undefined) return undefined;
  const digest = new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(key)));
  return `key:${Array.from(digest.slice(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}
