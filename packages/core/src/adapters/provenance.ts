// ONE policy for provider-native items when a history goes to a model: keep what that model can verify, else drop
// the item, or say it in words where words are safe.
//
// A thinking block's signature, a reasoning item's encrypted content and a compaction item are bound to the model
// (for OpenAI, also the account) that produced them: another model refuses them with a 400. The loop wrappers record
// who produced each assistant message (`metadata.provenance`); each `to…` conversion given a target applies this.
import type { AssistantMessage, ContentPart, Message, Provenance } from "../messages/message.js";
import { isReasoningPart } from "./strip-reasoning.js";

/** The model a request goes to, as a provenance names it. */
export interface ProvenanceTarget {
  provider: string;
  model: string;
  /** Compared only when both the target and the provenance name one. */
  account?: string;
}

export interface ProvenancePolicyOptions {
  /** The model the request goes to. Without one, every item is kept as stored, as before provenance was recorded. */
  readonly target: ProvenanceTarget | undefined;
  /**
   * A native part's readable text, for a part that may safely be said to another model in words (a readable
   * summary). Never a signature or encrypted content. Parts it gives nothing for are dropped.
   */
  readonly readableText?: (part: ContentPart) => string | undefined;
}

/** Whether a part is bound to the model that produced it: any provider's reasoning, or a compaction block or item. */
export function isProviderNativePart(part: ContentPart): boolean {
  return isReasoningPart(part) || part.type === "compaction";
}

/** The message's recorded provenance, when it has a well-formed one. */
export function provenanceOf(message: Message): Provenance | undefined {
  const value = message.metadata?.provenance;
  return typeof value === "object" && value !== null && typeof value.provider === "string" && typeof value.model === "string"
    ? value
    : undefined;
}

/**
 * The messages with `provenance` recorded on each assistant message that holds a provider-native part, the only
 * parts it decides about; other messages are returned as they are.
 */
export function withProvenance(messages: readonly Message[], provenance: Provenance): Message[] {
  return messages.map((message) =>
    message.role === "assistant" && Array.isArray(message.content) && message.content.some(isProviderNativePart)
      ? { ...message, metadata: { ...message.metadata, provenance: { ...provenance } } }
      : message,
  );
}

// A dated snapshot names the model its alias names: `claude-sonnet-4-5-20250929`, `gpt-5-mini-2025-08-07`.
const SNAPSHOT_SUFFIX = /-(?:\d{8}|\d{4}-\d{2}-\d{2})$/;

/** The same model: equal ids once a dated snapshot suffix is left out. */
export function isSameModel(left: string, right: string): boolean {
  return left === right || left.replace(SNAPSHOT_SUFFIX, "") === right.replace(SNAPSHOT_SUFFIX, "");
}

/** A provider's family: the id before its first dot (`openai.responses` is `openai`), lower-cased. */
export function providerFamily(provider: string): string {
  return provider.split(".")[0]!.toLowerCase();
}

/**
 * Whether `model` of `provider`'s family read `conversation` last, so that its prompt cache may hold it: the model
 * its request was sent to, when the caller named it (`RequestOptions.model`); otherwise the latest assistant
 * message that records a provenance. False when neither tells (the cache's model is unknown).
 */
export function wasReadBy(
  conversation: { readonly messages: readonly Message[]; readonly model?: string | undefined },
  target: { readonly provider: string; readonly model: string },
): boolean {
  if (conversation.model !== undefined) return isSameModel(conversation.model, target.model);
  for (let index = conversation.messages.length - 1; index >= 0; index -= 1) {
    const message = conversation.messages[index]!;
    const provenance = message.role === "assistant" ? provenanceOf(message) : undefined;
    if (provenance !== undefined)
      return providerFamily(provenance.provider) === providerFamily(target.provider) && isSameModel(provenance.model, target.model);
  }
  return false;
}

/** Whether `target` can verify the items a model of `provenance` produced: same family, same model, same account. */
export function canVerify(provenance: Provenance, target: ProvenanceTarget): boolean {
  return (
    providerFamily(provenance.provider) === providerFamily(target.provider) &&
    isSameModel(provenance.model, target.model) &&
    (provenance.account === undefined || target.account === undefined || provenance.account === target.account)
  );
}

// One converted copy per stored message and target, so repeated views send the same objects.
const converted = new WeakMap<Message, Map<string, Message>>();

/**
 * The messages as `target` may receive them. An assistant message whose provenance `target` cannot verify loses its
 * provider-native parts: each becomes a text part when `readableText` gives one, else it is left out, whole. A
 * message without provenance (a history recorded before it was kept) and every message when there is no target are
 * returned as they are: the same objects, so a stable prefix stays identical.
 */
export function applyProvenancePolicy(messages: readonly Message[], options: ProvenancePolicyOptions): Message[] {
  const { target } = options;
  if (target === undefined) return [...messages];
  const key = JSON.stringify([target.provider, target.model, target.account ?? null]);
  return messages.map((message) => {
    if (message.role !== "assistant" || !Array.isArray(message.content)) return message;
    const provenance = provenanceOf(message);
    if (provenance === undefined || canVerify(provenance, target) || !message.content.some(isProviderNativePart)) return message;
    let copies = converted.get(message);
    const cached = copies?.get(key);
    if (cached !== undefined) return cached;
    const copy = Object.freeze(withoutForeignParts(message, options));
    if (copies === undefined) converted.set(message, (copies = new Map()));
    copies.set(key, copy);
    return copy;
  });
}

function withoutForeignParts(message: AssistantMessage, options: ProvenancePolicyOptions): AssistantMessage {
  const content = (message.content as ContentPart[]).flatMap((part): ContentPart[] => {
    if (!isProviderNativePart(part)) return [part];
    const text = options.readableText?.(part);
    return text === undefined || text.trim() === "" ? [] : [{ type: "text", text }];
  });
  const hasCalls = message.tool_calls !== undefined && message.tool_calls.length > 0;
  return { ...message, content: content.length > 0 ? content : hasCalls ? null : "" };
}
