// A summarizer over any OpenAI-compatible chat client, duck-typed so there is no dependency on the openai package.
import { ContextArgumentError, ContextSummarizerError, toProviderMessages, type Message } from "@ctxkit/core";
import { wasReadBy } from "@ctxkit/core/kit";
import { buildSummaryChat, type ChatMessage } from "./render-transcript.js";
import type { Summarizer, SummarizerRequest } from "./summarizer.js";

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
  /**
   * Send the conversation the agent last sent, unchanged, then one user message asking for the summary, whenever
   * the strategy offers it (`SummarizerRequest.conversation`): the provider reads that prefix from its prompt
   * cache (automatic past 1,024 tokens) instead of being sent a transcript. It hits only when `model` is the
   * model that read that conversation; with another model it costs about twice a transcript. `"auto"` (default)
   * reuses it only when that conversation was sent to `model` (a dated snapshot suffix aside): as the request's
   * `RequestOptions.model` says (the loop wrappers pass it), or, when the request named none, as the latest
   * assistant message that records a `metadata.provenance` says (an OpenAI model); it sends the transcript when
   * neither tells. `true` and `false` decide without looking.
   */
  reuseCachedPrefix?: boolean | "auto";
  /**
   * How the agent's loop turns a view into request messages, so the prefix is sent the same bytes. Default: the
   * view without `metadata` (`toProviderMessages`); pass `toChatCompletionMessages` from `@ctxkit/openai` when
   * the messages carry keys Chat Completions drops (`is_error`, say).
   */
  toMessages?: (view: readonly Message[]) => readonly (ChatMessage | Message)[];
}

/**
 * Sends the conversation the agent last sent plus one user message with the instructions (see
 * `reuseCachedPrefix`) when the strategy offers it; otherwise the instructions as the system message and
 * the previous summary plus the transcript as one user message. The completion limit is twice the length asked, so a slightly long answer is not
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
  const { model, maxTokensField = "max_tokens", temperature, reuseCachedPrefix = "auto", toMessages = toProviderMessages } = options;
  return async (request) => {
    const reuse =
      reuseCachedPrefix === "auto"
        ? request.conversation !== undefined && wasReadBy(request.conversation, { provider: "openai", model })
        : reuseCachedPrefix;
    const prefix = reuse ? prefixChat(request, toMessages) : undefined;
    // The conversation's messages and tools go as the agent's loop sent them: their types are the client's own,
    // which this duck type does not restate (the openai package's message and tool types would make it depend on it).
    const body = (prefix === undefined ? { model, messages: buildSummaryChat(request) } : { model, ...prefix }) as Parameters<
      OpenAIChatClient["chat"]["completions"]["create"]
    >[0];
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

/**
 * The agent's last request unchanged (its messages as its loop sent them, its tools, since a provider's cached
 * prefix holds them too), then the ask; undefined when the strategy offered no conversation.
 */
function prefixChat(
  request: SummarizerRequest,
  toMessages: NonNullable<OpenAIChatSummarizerOptions["toMessages"]>,
): { messages: (ChatMessage | Message)[]; tools?: unknown[] } | undefined {
  const { conversation } = request;
  if (conversation === undefined) return undefined;
  const ask: ChatMessage = { role: "user", content: conversation.ask };
  const messages = [...toMessages(conversation.messages), ask];
  return conversation.tools === undefined ? { messages } : { messages, tools: [...conversation.tools] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
