// Whether a strategy's recorded edit of a history message is a shortening, judged in tokens as the budget is.
import type { Message } from "@ctxkit/core";
import { isDeepEqual } from "../checks/deep-equal.js";

/** How many leading (or trailing) characters a shortened text must keep to count as the same message. */
const ANCHOR_LENGTH = 8;

function callIds(message: Message): string[] | undefined {
  return message.role === "assistant" ? message.tool_calls?.map((call) => call.id) : undefined;
}

/** The message's texts that are not empty, in order: an image or a blank text part between two texts anchors nothing. */
function textsOf(message: Message): string[] {
  const { content } = message;
  if (content === null) return [];
  if (typeof content === "string") return content === "" ? [] : [content];
  return content.flatMap((part) => (part.type === "text" && typeof part.text === "string" && part.text !== "" ? [part.text] : []));
}

/**
 * Why `candidate` is not a shortening of `original`, or undefined when it is. A shortening keeps what pairs
 * and addresses the message (role, name, tool_call_id, call ids) and has fewer tokens, counted with the
 * context's counter: fewer characters or bytes prove nothing, since a shorter text of rarer characters can
 * cost more. A tool result or a call may hold any content (a placeholder); any other message keeps, in one of
 * its texts, the start of the original's first text or the end of its last (parts around them may go or become
 * notes), so that no message passes for a shortened form of another.
 */
export function findShorteningProblem(
  candidate: Message,
  original: Message,
  countMessage: (message: Message) => number,
): string | undefined {
  if (candidate.role !== original.role || candidate.name !== original.name) return "its role or name changed";
  if (candidate.role === "tool" && original.role === "tool" && candidate.tool_call_id !== original.tool_call_id)
    return "its tool_call_id changed";
  const ids = callIds(original);
  if (!isDeepEqual(callIds(candidate), ids)) return "its tool call ids changed";
  const before = countMessage(original);
  const after = countMessage(candidate);
  if (after >= before) return `it has ${after} tokens, the original ${before} (counted with the context's counter): a shortening has fewer`;
  if (candidate.role === "tool" || ids !== undefined) return undefined;
  const shortened = textsOf(candidate);
  const texts = textsOf(original);
  const head = (texts[0] ?? "").slice(0, ANCHOR_LENGTH);
  const last = texts.at(-1) ?? "";
  const tail = last.slice(Math.max(0, last.length - ANCHOR_LENGTH));
  if (texts.length === 0 || shortened.some((text) => text.startsWith(head) || text.endsWith(tail))) return undefined;
  return "it keeps neither the start nor the end of the original's text";
}
