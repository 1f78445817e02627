// The imitations for summary requests: OpenAI's automatic prompt caching on Chat Completions, and a scripted model that answers a summary ask with a summary.
import { AnthropicImitation, anthropicError } from "./anthropic-imitation.js";
import { handleChatCompletion } from "./chat-completions-imitation.js";
import { startLoopbackServer, type LoopbackServer, type Reply } from "./loopback-server.js";
import { openAIError } from "./openai-errors.js";
import { DEFAULT_COUNTING, providerTokens, type ProviderCounting } from "./provider-tokens.js";

/** What every summary ask opens with: the strategy's default system prompt. */
export const SUMMARY_ASK_OPENING = "You summarize part of a conversation";
export const SCRIPTED_SUMMARY = "Summary: the user asked for files to be read; the files list build steps and nothing failed.";

// OpenAI caches a prompt of at least 1,024 tokens, and reads a cached prefix in steps of 128 tokens past the first 1,024.
const MINIMUM_CACHED = 1_024;
const CACHE_STEP = 128;

type ChatMessage = Record<string, unknown> & { role: string; content?: unknown };

/** A message's texts as the Chat Completions imitation counts them: its text parts, and each call's name and arguments. */
function textsOf(message: ChatMessage): string[] {
  const { content } = message;
  const texts = typeof content === "string" ? [content] : [];
  if (Array.isArray(content))
    for (const part of content as { text?: string; refusal?: string }[]) texts.push(part.text ?? part.refusal ?? "");
  for (const call of (message["tool_calls"] as { function: { name: string; arguments: string } }[] | undefined) ?? [])
    texts.push(call.function.name, call.function.arguments);
  return texts;
}

/**
 * Chat Completions prompt caching as OpenAI applies it, without being asked: the prompt is the model, the tools,
 * then each message; the longest prefix a request shares (exactly) with an earlier one to the same model is read
 * from the cache, counted down to the cache's 128-token steps, and nothing below 1,024 tokens. Reported as
 * `usage.prompt_tokens_details.cached_tokens`. Whole messages are the unit of comparison here, where the service
 * compares tokens: a prefix that ends inside a message is not counted, so the figure is never more than OpenAI's.
 */
export class ChatCompletionsPromptCache {
  private readonly seen: { model: unknown; segments: string[]; tokens: number[] }[] = [];

  constructor(private readonly ratio = DEFAULT_COUNTING.ratio) {}

  /** The cached tokens of this request's prompt, and remembers it for the requests after it. */
  read(body: Record<string, unknown>): number {
    const messages = (body["messages"] as ChatMessage[] | undefined) ?? [];
    const segments = [JSON.stringify(body["tools"] ?? null), ...messages.map((message) => JSON.stringify(message))];
    const tokens = [
      body["tools"] === undefined ? 0 : providerTokens([JSON.stringify(body["tools"])], 0, this.ratio),
      ...messages.map((message) => providerTokens(textsOf(message), 1, this.ratio)),
    ];
    let best = 0;
    for (const earlier of this.seen) {
      if (earlier.model !== body["model"]) continue;
      let shared = 0;
      while (shared < segments.length && shared < earlier.segments.length && segments[shared] === earlier.segments[shared]) shared += 1;
      best = Math.max(
        best,
        tokens.slice(0, shared).reduce((total, count) => total + count, 0),
      );
    }
    this.seen.push({ model: body["model"], segments, tokens });
    return best < MINIMUM_CACHED ? 0 : MINIMUM_CACHED + Math.floor((best - MINIMUM_CACHED) / CACHE_STEP) * CACHE_STEP;
  }
}

function lastUserText(body: Record<string, unknown>): string {
  const last = ((body["messages"] as ChatMessage[] | undefined) ?? []).at(-1);
  if (last?.role !== "user") return "";
  if (typeof last.content === "string") return last.content;
  const blocks = Array.isArray(last.content) ? (last.content as { type?: string; text?: string }[]) : [];
  return blocks.at(-1)?.type === "text" ? String(blocks.at(-1)!.text) : "";
}

/** Whether the request ends with a summary ask: the scripted model then answers with a summary, not a tool call. */
export function isSummaryAsk(body: Record<string, unknown>): boolean {
  return lastUserText(body).startsWith(SUMMARY_ASK_OPENING);
}

/** The OpenAI imitation's Chat Completions (non-streamed), with prompt caching and summaries. */
export async function startCachingChatCompletions(counting: ProviderCounting = DEFAULT_COUNTING): Promise<LoopbackServer> {
  const cache = new ChatCompletionsPromptCache(counting.ratio);
  return startLoopbackServer(
    (path, body, record) => {
      if (path !== "/v1/chat/completions") return openAIError(404, `Invalid URL (POST ${path})`, null, null);
      const reply = handleChatCompletion(body, record, counting);
      if (reply.status !== 200 || body["stream"] === true) return reply;
      const completion = reply.body as {
        choices: { message: Record<string, unknown>; finish_reason: string }[];
        usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details: { cached_tokens: number } };
      };
      completion.usage.prompt_tokens_details.cached_tokens = Math.min(cache.read(body), completion.usage.prompt_tokens);
      if (isSummaryAsk(body)) {
        completion.choices[0] = {
          ...completion.choices[0]!,
          message: { role: "assistant", content: SCRIPTED_SUMMARY, refusal: null, annotations: [] },
          finish_reason: "stop",
        };
        completion.usage.completion_tokens = providerTokens([SCRIPTED_SUMMARY], 0, counting.ratio);
        completion.usage.total_tokens = completion.usage.prompt_tokens + completion.usage.completion_tokens;
      }
      return reply;
    },
    () => openAIError(400, "We could not parse the JSON body of your request."),
  );
}

/** The Anthropic imitation (its own prompt caching), whose scripted model answers a summary ask with a summary. */
export async function startSummarizingAnthropic(counting: ProviderCounting = DEFAULT_COUNTING): Promise<LoopbackServer> {
  const imitation = new AnthropicImitation(counting);
  return startLoopbackServer(
    (path, body, record) => {
      if (path.split("?")[0] !== "/v1/messages") return anthropicError(404, "not_found_error", "Not found");
      const reply: Reply = imitation.handle(body, record);
      if (reply.status !== 200 || !isSummaryAsk(body) || body["stream"] === true) return reply;
      const message = reply.body as Record<string, unknown> & { usage: Record<string, unknown> };
      message["content"] = [{ type: "text", text: SCRIPTED_SUMMARY, citations: null }];
      message["stop_reason"] = "end_turn";
      message.usage["output_tokens"] = providerTokens([SCRIPTED_SUMMARY], 0, counting.ratio);
      return reply;
    },
    () => anthropicError(400, "invalid_request_error", "There was an issue with your request body: it is not valid JSON."),
  );
}
