// A summarizer the kit hands to a module's summary strategy, so it can see what each summary was made from.
import type { Message } from "@ctxkit/core";

/** What a summary strategy sends a summarizer (the shape of `@ctxkit/strategy-summary`'s `SummarizerRequest`). */
export interface SummarizerRequestLike {
  readonly messages: readonly Message[];
  readonly previousSummary: string | undefined;
  readonly instructions: string;
  readonly signal: AbortSignal;
  readonly maxTokens?: number;
}

export interface RecordedSummaryCall {
  readonly messages: readonly Message[];
  readonly previousSummary: string | undefined;
}

/** A deterministic summarizer that records every call; structurally a `Summarizer`. */
export interface RecordingSummarizer {
  (request: SummarizerRequestLike): Promise<string>;
  /** Every call so far, across restarts of the session it was made for. */
  readonly calls: readonly RecordedSummaryCall[];
}

function textOf(message: Message): string {
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content))
    return message.content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join(" ");
  return message.role === "assistant" && message.tool_calls !== undefined
    ? message.tool_calls.map((call) => call.function.name).join(" ")
    : "";
}

/** The first words of each message, after the previous summary: no model, same text for the same input. */
export function createRecordingSummarizer(): RecordingSummarizer {
  const calls: RecordedSummaryCall[] = [];
  const summarize = async (request: SummarizerRequestLike): Promise<string> => {
    request.signal.throwIfAborted();
    calls.push({ messages: request.messages.slice(), previousSummary: request.previousSummary });
    // Every message, whatever its metadata says: a caller may put ctxkit markers on its own messages.
    const lines = request.messages.map((message) => `${message.role}: ${textOf(message).slice(0, 40)}`);
    const limit = Math.max(40, (request.maxTokens ?? 200) * 2);
    return [request.previousSummary ?? "", ...lines].join("\n").trim().slice(-limit);
  };
  return Object.assign(summarize, { calls });
}
