// A summarizer over any OpenAI-compatible chat client, duck-typed so there is no dependency on the openai package.
import { buildSummaryChat, type ChatMessage } from "./render-transcript.js";
import type { Summarizer } from "./summarizer.js";

/** The one method used, as the openai package (and compatible clients) define it. */
export interface OpenAIChatClient {
  chat: {
    completions: {
      create(
        body: { model: string; messages: ChatMessage[]; max_tokens?: number; max_completion_tokens?: number; temperature?: number },
        options?: { signal?: AbortSignal },
      ): Promise<{ choices?: ReadonlyArray<{ message?: { content?: string | null } | null }> }>;
    };
  };
}

export interface OpenAIChatSummarizerOptions {
  model: string;
  /**
   * Which body field carries the length limit: `max_tokens` (most compatible servers), or
   * `max_completion_tokens` (OpenAI reasoning models), or `"none"` to send no limit. Default `max_tokens`.
   */
  maxTokensField?: "max_tokens" | "max_completion_tokens" | "none";
  temperature?: number;
}

/**
 * Sends the instructions as the system message and the previous summary plus the transcript as one
 * user message. The completion limit is twice the length asked, so a slightly long answer is not
 * cut mid-sentence; the strategy shortens anything longer than `maxSummaryTokens` itself.
 */
export function openAIChatSummarizer(client: OpenAIChatClient, options: OpenAIChatSummarizerOptions): Summarizer {
  const { model, maxTokensField = "max_tokens", temperature } = options;
  return async (request) => {
    const body: Parameters<OpenAIChatClient["chat"]["completions"]["create"]>[0] = { model, messages: buildSummaryChat(request) };
    if (request.maxTokens !== undefined && maxTokensField !== "none") body[maxTokensField] = request.maxTokens * 2;
    if (temperature !== undefined) body.temperature = temperature;
    const response = await client.chat.completions.create(body, { signal: request.signal });
    const content = response.choices?.[0]?.message?.content;
    if (typeof content !== "string" || content.trim() === "") {
      throw new Error(`The summary model "${model}" answered without text.`);
    }
    return content;
  };
}
