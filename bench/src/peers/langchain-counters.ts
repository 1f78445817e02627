// The two token counters LangChain users pass to trimMessages: the docs' js-tiktoken one and the approximate one.
import { AIMessage, type BaseMessage, HumanMessage, type MessageContent, SystemMessage, ToolMessage } from "@langchain/core/messages";
import type { Meter } from "./context-system.js";
import { encodeLength } from "./js-tiktoken-encoder.js";

export type ListCounter = (messages: BaseMessage[]) => number;

/** A list counter that is a sum over messages: each message's share, then the total from the sum. */
export interface MessageMeasure {
  share(message: BaseMessage): number;
  /** Tokenizer calls one `share` makes. */
  tokenizerCalls(message: BaseMessage): number;
  total(sum: number): number;
}

function contentText(content: MessageContent): string {
  if (typeof content === "string") return content;
  if (content.every((part) => part.type === "text" && typeof part.text === "string")) {
    return content.map((part) => part.text as string).join("");
  }
  throw new Error(`Unsupported message content ${JSON.stringify(content)}`);
}

function roleOf(message: BaseMessage): string {
  if (HumanMessage.isInstance(message)) return "user";
  if (AIMessage.isInstance(message)) return "assistant";
  if (ToolMessage.isInstance(message)) return "tool";
  if (SystemMessage.isInstance(message)) return "system";
  throw new Error(`Unsupported messages type ${message.getType()}`);
}

/**
 * The counter from LangChain.js's "How to trim messages" guide (the OpenAI cookbook's
 * num_tokens_from_messages): 3, plus per message 3 + tokens(role) + tokens(content) [+ 1 + tokens(name)].
 * Like the guide, it counts a message's content only, not its tool calls. The guide gets its encoder
 * from `encodingForModel`, which downloads ranks at run time; here it is js-tiktoken's o200k_base,
 * built locally, and synchronous (the guide awaits it per message, which would only slow it down).
 */
export const docsTiktokenMeasure: MessageMeasure = {
  share(message) {
    let tokens = 3 + encodeLength(roleOf(message)) + encodeLength(contentText(message.content));
    if (message.name) tokens += 1 + encodeLength(message.name);
    return tokens;
  },
  tokenizerCalls: (message) => (message.name ? 3 : 2),
  total: (sum) => 3 + sum,
};

/**
 * `countTokensApproximately` as `langchain` 1.5.14 ships it (dist/agents/middleware/utils.js): the
 * characters of the text, of the tool calls' JSON and of the tool call id, divided by 4, rounded up.
 * Copied because it lives in the `langchain` package, not in @langchain/core.
 */
export const approximateMeasure: MessageMeasure = {
  share(message) {
    let textContent: string;
    if (typeof message.content === "string") textContent = message.content;
    else if (Array.isArray(message.content)) {
      textContent = message.content
        .map((item) => {
          if (typeof item === "string") return item;
          if (item.type === "text" && "text" in item) return item.text as string;
          return "";
        })
        .join("");
    } else textContent = "";
    if (AIMessage.isInstance(message) && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      textContent += JSON.stringify(message.tool_calls);
    }
    if (ToolMessage.isInstance(message)) textContent += message.tool_call_id ?? "";
    return textContent.length;
  },
  tokenizerCalls: () => 0,
  total: (sum) => Math.ceil(sum / 4),
};

/** The list counter a user writes: every message measured on every call. */
export function listCounter(measure: MessageMeasure, meter: Meter): ListCounter {
  return (messages) => {
    let sum = 0;
    for (const message of messages) {
      meter.messagesMeasured += 1;
      meter.tokenizerCalls += measure.tokenizerCalls(message);
      sum += measure.share(message);
    }
    return measure.total(sum);
  };
}
