// What the summarizer sees of a long tool output or call argument: its head and tail, never a split character.
import type { Message } from "@ctxkit/core";
import { contentText } from "./message-text.js";

/**
 * `text` when it has at most `maxChars` code points; otherwise two thirds of the budget from the
 * head, a marker, and the rest from the tail. Works on code points so a surrogate pair is never cut.
 */
export function shortenText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const codePoints = Array.from(text);
  if (codePoints.length <= maxChars) return text;
  const headLength = Math.ceil((maxChars * 2) / 3);
  const tailLength = maxChars - headLength;
  const omitted = codePoints.length - headLength - tailLength;
  const head = codePoints.slice(0, headLength).join("");
  const tail = tailLength > 0 ? codePoints.slice(-tailLength).join("") : "";
  return `${head}\n[… ${omitted} characters not shown …]\n${tail}`;
}

/**
 * The message as the summarizer gets it: tool outputs and tool-call arguments cut to `maxChars`.
 * Unchanged messages are returned as they are (frozen history objects stay shared).
 */
export function shortenForSummarizer(message: Message, maxChars: number): Message {
  if (message.role === "tool") {
    const text = contentText(message.content);
    const shortened = shortenText(text, maxChars);
    return shortened === text ? message : { ...message, content: shortened };
  }
  if (message.role === "assistant" && message.tool_calls !== undefined) {
    const isLong = message.tool_calls.some((call) => call.function.arguments.length > maxChars);
    if (!isLong) return message;
    const toolCalls = message.tool_calls.map((call) => ({
      ...call,
      function: { ...call.function, arguments: shortenText(call.function.arguments, maxChars) },
    }));
    return { ...message, tool_calls: toolCalls };
  }
  return message;
}
