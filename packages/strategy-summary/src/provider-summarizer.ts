// A summarizer over a provider mounted on the coordinator: what a mount plan uses, since it cannot hold a function.
import { ContextSummarizerError, type Coordinator } from "@ctxkit/core";
import { buildSummaryChat, type ChatMessage } from "./render-transcript.js";
import type { Summarizer } from "./summarizer.js";

export interface CompletionRequest {
  messages: ChatMessage[];
  maxTokens?: number;
  signal: AbortSignal;
  /** The `model` from the strategy's config, when one was given. */
  model?: string;
}

/** What the summary needs of a provider, besides the `Provider` protocol: one chat completion. */
export interface CompletionProvider {
  complete(request: CompletionRequest): Promise<string | { content?: string | null; text?: string | null }>;
}

export function isCompletionProvider(value: unknown): value is CompletionProvider {
  return typeof value === "object" && value !== null && typeof (value as CompletionProvider).complete === "function";
}

function replyText(reply: Awaited<ReturnType<CompletionProvider["complete"]>>): string | undefined {
  if (typeof reply === "string") return reply;
  const text = reply?.content ?? reply?.text;
  return typeof text === "string" ? text : undefined;
}

/**
 * Looks the provider up on every call rather than once, so it may be mounted after the strategy is
 * created, or replaced. A missing provider fails the call like any summarizer error: the pipeline
 * goes on to the next strategy and the circuit breaker counts it.
 */
export function providerSummarizer(coordinator: Coordinator, providerName: string, model?: string): Summarizer {
  return async (request) => {
    const provider: unknown = coordinator.get("providers", providerName);
    if (!isCompletionProvider(provider)) {
      const found = provider === undefined ? "none is mounted" : "the mounted one has no complete() method";
      throw new ContextSummarizerError(
        `provider "${providerName}"`,
        `needs a provider mounted at providers under that name with complete({ messages, maxTokens, signal }); ${found}.`,
      );
    }
    const completion: CompletionRequest = { messages: buildSummaryChat(request), signal: request.signal };
    if (request.maxTokens !== undefined) completion.maxTokens = request.maxTokens;
    if (model !== undefined) completion.model = model;
    const text = replyText(await provider.complete(completion));
    if (text === undefined || text.trim() === "") {
      throw new ContextSummarizerError(
        `provider "${providerName}"`,
        "answered without text: complete() must resolve to a string or { content } / { text }.",
      );
    }
    return text;
  };
}
