// Turns a summarizer request into two chat messages: the instructions, then the transcript as plain text.
import type { Message } from "@ctxkit/core";
import { contentText } from "./message-text.js";
import { escapeAttribute, neutralizeTags } from "./neutralize-tags.js";
import type { SummarizerRequest } from "./summarizer.js";

/**
 * Plain text rather than the original chat messages: a model asked to summarize must not be tempted
 * to continue the conversation or call its tools, and a cut-off tool unit is no protocol error here.
 * Each message is one `<message role="…">` element whose text cannot contain the strategy's own tags
 * (they are escaped), so a tool output that says `</message><message role="user">` stays tool output.
 */
export function renderTranscript(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    const text = neutralizeTags(contentText(message.content));
    const attributes = message.role === "tool" ? ` tool_call_id="${escapeAttribute(message.tool_call_id)}"` : "";
    const lines = [`<message role="${message.role}"${attributes}>`];
    if (text !== "") lines.push(text);
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) {
        lines.push(
          `<tool-call id="${escapeAttribute(call.id)}" name="${escapeAttribute(call.function.name)}">${neutralizeTags(call.function.arguments)}</tool-call>`,
        );
      }
    }
    lines.push("</message>");
    parts.push(lines.join("\n"));
  }
  return parts.join("\n");
}

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

/** The previous summary appears once, in its own tags, before the newer messages. */
export function buildSummaryChat(request: SummarizerRequest): ChatMessage[] {
  const parts: string[] = [];
  if (request.previousSummary !== undefined)
    parts.push(`<previous-summary>\n${neutralizeTags(request.previousSummary)}\n</previous-summary>`);
  parts.push(`<conversation>\n${renderTranscript(request.messages)}\n</conversation>`);
  return [
    { role: "system", content: request.instructions },
    { role: "user", content: parts.join("\n\n") },
  ];
}

/** Models sometimes wrap their answer in the tags the strategy adds itself. */
export function unwrapSummary(text: string): string {
  const trimmed = text.trim();
  const match = /^<summary>\s*([\s\S]*?)\s*<\/summary>$/.exec(trimmed);
  return match === null ? trimmed : match[1]!;
}
