// Each adapter as a pair of conversions and the strict rules of its provider's requests.
import { checkAnthropicRequest, checkChatCompletionRequest, checkGeminiRequest, checkModelPrompt } from "@ctxkit/conformance";
import { fromModelMessages, toModelMessages } from "@ctxkit/ai-sdk";
import { fromAnthropicMessages, toAnthropicMessages } from "@ctxkit/anthropic";
import type { Message } from "@ctxkit/core";
import { fromGeminiContents, toGeminiContents } from "@ctxkit/google";
import { fromChatCompletionMessages, fromResponseInputItems, toChatCompletionMessages, toResponseInputItems } from "@ctxkit/openai";

export interface Provider {
  readonly name: string;
  to(messages: readonly Message[]): unknown;
  from(payload: unknown): Message[];
  /** The provider's request rules; absent where no strict checker exists (the Responses API). */
  readonly check?: (payload: unknown) => string[];
}

export const PROVIDERS: readonly Provider[] = [
  {
    name: "Chat Completions",
    to: toChatCompletionMessages,
    from: (payload) => fromChatCompletionMessages(payload as never),
    check: checkChatCompletionRequest,
  },
  {
    name: "Anthropic",
    to: (messages) => toAnthropicMessages(messages),
    from: (payload) => {
      const { system, messages } = payload as ReturnType<typeof toAnthropicMessages>;
      return fromAnthropicMessages(messages, system === undefined ? {} : { system });
    },
    check: checkAnthropicRequest,
  },
  {
    name: "AI SDK",
    to: toModelMessages,
    from: (payload) => {
      const { system, messages } = payload as ReturnType<typeof toModelMessages>;
      return fromModelMessages(messages, system === undefined ? {} : { system });
    },
    check: checkModelPrompt,
  },
  {
    name: "Gemini",
    to: (messages) => toGeminiContents(messages),
    from: (payload) => {
      const { systemInstruction, contents } = payload as ReturnType<typeof toGeminiContents>;
      return fromGeminiContents(contents, systemInstruction === undefined ? {} : { systemInstruction });
    },
    check: checkGeminiRequest,
  },
  {
    name: "Responses",
    to: toResponseInputItems,
    from: (payload) => fromResponseInputItems(payload as never),
  },
];
