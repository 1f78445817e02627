// Anthropic's compaction blocks as records of their own: stored verbatim, pinned, and the view sent from the latest one on.
import type { ContentPart, Message } from "@ctxkit/core";

function isCompactionPart(part: unknown): boolean {
  return typeof part === "object" && part !== null && (part as { type?: unknown }).type === "compaction";
}

/** Whether a message is a compaction record: an assistant message holding one compaction block and nothing else. */
export function isCompactionRecord(message: Message): boolean {
  return (
    message.role === "assistant" && Array.isArray(message.content) && message.content.length === 1 && isCompactionPart(message.content[0])
  );
}

/**
 * Splits each assistant message that carries a compaction block into the block alone (a pinned record, so no
 * strategy drops the summary that stands for everything before it) and the rest of the turn after it, in order.
 */
export function toCompactionRecords(messages: readonly Message[]): Message[] {
  return messages.flatMap((message): Message[] => {
    if (message.role !== "assistant" || !Array.isArray(message.content) || !message.content.some(isCompactionPart)) return [message];
    const { tool_calls: toolCalls, ...withoutCalls } = message;
    const records: Message[] = [];
    let rest: ContentPart[] = [];
    for (const part of message.content) {
      if (!isCompactionPart(part)) {
        rest.push(part);
        continue;
      }
      if (rest.length > 0) records.push({ ...withoutCalls, content: rest });
      rest = [];
      records.push({ role: "assistant", content: [part], metadata: { ...message.metadata, pinned: true } });
    }
    // The calls belong with the text after the last block: that is what the model answered with.
    if (rest.length > 0 || toolCalls !== undefined)
      records.push({
        ...withoutCalls,
        content: rest.length > 0 ? rest : null,
        ...(toolCalls === undefined ? {} : { tool_calls: toolCalls }),
      });
    return records;
  });
}

/**
 * The view from its latest compaction record on (system and developer messages kept): the API takes a
 * compaction block only as the first block of the conversation, standing for everything before it.
 */
export function fromLatestCompaction(view: readonly Message[]): Message[] {
  const latest = view.findLastIndex(isCompactionRecord);
  if (latest < 0) return [...view];
  const instructions = view.slice(0, latest).filter((message) => message.role === "system" || message.role === "developer");
  return [...instructions, ...view.slice(latest)];
}
