// OpenAI Responses compaction items (opaque, encrypted) as records of their own, and the view sent from the latest one.
import type { ContentPart, Message } from "@ctxkit/core";
import type { ResponseCompactionItemParam } from "openai/resources/responses/responses";

/** A compaction item riding as the single part of an assistant record, `encrypted_content` and all. */
export function isCompactionPart(part: ContentPart): part is ContentPart & ResponseCompactionItemParam {
  return part.type === "compaction" && typeof (part as { encrypted_content?: unknown }).encrypted_content === "string";
}

export function isCompactionRecord(message: Message): boolean {
  return (
    message.role === "assistant" && Array.isArray(message.content) && message.content.length === 1 && isCompactionPart(message.content[0]!)
  );
}

/** The record pinned, so no strategy drops the item that stands for the conversation before it. */
export function pinCompactionRecords(messages: readonly Message[]): Message[] {
  return messages.map((message) =>
    isCompactionRecord(message) ? { ...message, metadata: { ...message.metadata, pinned: true } } : message,
  );
}

/**
 * The view from its latest compaction record on. Before it, only the instructions and the user's messages stay:
 * `responses.compact` returns exactly those followed by the compaction item, which stands for the rest.
 */
export function fromLatestCompaction(view: readonly Message[]): Message[] {
  const latest = view.findLastIndex(isCompactionRecord);
  if (latest < 0) return [...view];
  const kept = view
    .slice(0, latest)
    .filter((message) => message.role === "system" || message.role === "developer" || message.role === "user");
  return [...kept, ...view.slice(latest)];
}
