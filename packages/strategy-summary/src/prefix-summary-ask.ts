// The one message that follows the conversation, re-sent as it was, to ask for the summary of a run of it.
import type { Message } from "@ctxkit/core";
import { contentText } from "./message-text.js";
import { neutralizeTags } from "./neutralize-tags.js";
import type { SummarizerConversation, SummarizerRequest } from "./summarizer.js";

type AskInput = Pick<SummarizerRequest, "instructions" | "previousSummary">;
type Where = Pick<SummarizerConversation, "messages" | "cover">;

const EXCERPT_CHARS = 80;

/**
 * How the ask names a message: by its tool call id or by the words it begins with, which read the same
 * whichever provider's form the conversation took (a system prompt apart, tool results folded into a
 * user turn), where a count of messages would not.
 */
function nameMessage(message: Message): string {
  if (message.role === "tool") return `the result of the tool call "${message.tool_call_id}"`;
  const text = contentText(message.content).replace(/\s+/g, " ").trim();
  if (text === "" && message.role === "assistant" && message.tool_calls?.[0] !== undefined) {
    const call = message.tool_calls[0];
    return `the assistant's call to ${call.function.name} (tool call "${call.id}")`;
  }
  const excerpt = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
  return `the ${message.role} message that begins "${neutralizeTags(excerpt)}"`;
}

/**
 * The instructions, then which run of the conversation above the summary stands for, then the previous
 * summary. Only this message is new: everything before it is the agent's last request byte for byte.
 */
export function buildPrefixSummaryAsk(request: AskInput, conversation: Where): string {
  const { messages, cover } = conversation;
  const first = nameMessage(messages[cover.start]!);
  const last = nameMessage(messages[cover.end - 1]!);
  const span = cover.end - cover.start === 1 ? `only ${first}` : `from ${first} through ${last}`;
  const kept = cover.kept.map((position) => nameMessage(messages[position]!));
  const stays = kept.length === 1 ? "which stays as it is" : "which stay as they are";
  const except = kept.length === 0 ? "" : `, except ${kept.join(" and ")}, ${stays}`;
  const parts = [
    request.instructions,
    [
      `The messages to summarize are not below but in the conversation above: ${span}${except}, and nothing after it.`,
      "Stop acting as the agent: call no tool and do not continue the conversation. Answer with the summary text only.",
    ].join(" "),
  ];
  if (request.previousSummary !== undefined)
    parts.push(`<previous-summary>\n${neutralizeTags(request.previousSummary)}\n</previous-summary>`);
  return parts.join("\n\n");
}
