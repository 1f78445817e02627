// A summarizer over any OpenAI-compatible chat client, duck-typed so there is no dependency on the openai package.
import { ContextArgumentError, ContextSummarizerError } from "@ctxkit/core";
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
  // Checked here, where the summarizer is made, rather than at the first summary deep in a request.
  if (typeof (client as Partial<OpenAIChatClient> | undefined)?.chat?.completions?.create !== "function") {
    throw new ContextArgumentError("openAIChatSummarizer", [
      { path: "client", message: "needs chat.completions.create(), as an OpenAI client has: pass new OpenAI() or a compatible client" },
    ]);
  }
  if (typeof options?.model !== "string" || options.model === "") {
    throw new ContextArgumentError("openAIChatSummarizer", [
      { path: "options.model", message: 'needs the model\'s name, e.g. { model: "gpt-4o-mini" }' },
    ]);
  }
  const { model, maxTokensField = "max_tokens", temperature } = options;
  return async (request) => {
    const body: Parameters<OpenAIChatClient["chat"]["completions"]["create"]>[0] = { model, messages: buildSummaryChat(request) };
    if (request.maxTokens !== undefined && maxTokensField !== "none") body[maxTokensField] = request.maxTokens * 2;
    if (temperature !== undefined) body.temperature = temperature;
    const who = `model "${model}"`;
    let response: unknown;
    try {
      response = await client.chat.completions.create(body, { signal: request.signal });
    } catch (error) {
      // A cancelled request keeps its own reason (the pipeline's timeout, the caller's abort).
      if (request.signal?.aborted) throw error;
      throw new ContextSummarizerError(who, `failed: ${describeError(error)}. Check the client and the model name.`, { cause: error });
    }
    // The answer is a server's JSON, so nothing in it is taken for granted.
    const choices = isRecord(response) ? response["choices"] : undefined;
    const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
    const message = isRecord(first) ? first["message"] : undefined;
    const content = isRecord(message) ? message["content"] : undefined;
    if (typeof content !== "string" || content.trim() === "") {
      throw new ContextSummarizerError(who, "answered without text in choices[0].message.content; check that the model is a chat model.");
    }
    return content;
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
