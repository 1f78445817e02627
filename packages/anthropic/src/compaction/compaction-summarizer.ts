// A summarizer for ctxkit's summary strategy backed by Anthropic's on-demand compaction (`compaction: { type: "summarize" }`).
import { ContextError, ContextSummarizerError, type Message } from "@ctxkit/core";
import { wasReadBy } from "@ctxkit/core/kit";
import type Anthropic from "@anthropic-ai/sdk";
import { ANTHROPIC_PROVIDER } from "../anthropic-provenance.js";
import { toAnthropicMessages } from "../to-anthropic-messages.js";
import { prefixSummaryRequest, type PrefixConversation, type PrefixRequestOptions } from "./prefix-summary-request.js";

/** What `@ctxkit/strategy-summary` hands a summarizer, declared here so this package depends on core alone. */
export interface CompactionSummarizerRequest {
  readonly messages: readonly Message[];
  readonly previousSummary: string | undefined;
  readonly instructions: string;
  readonly signal: AbortSignal;
  readonly maxTokens?: number;
  /** The agent's last request and the ask that follows it, when the strategy offers them (`SummarizerRequest.conversation`). */
  readonly conversation?: PrefixConversation;
}

export type CompactionSummarizer = (request: CompactionSummarizerRequest) => Promise<string>;

export interface CompactionSummarizerOptions extends Omit<PrefixRequestOptions, "model"> {
  model: string;
  /** `"ctxkit"` (default) sends the summary strategy's instructions; `"server"` keeps Anthropic's own summarization prompt. */
  instructions?: "ctxkit" | "server";
  /** The beta that enables the `compaction` parameter. Default `compact-2026-09-04`. */
  beta?: string;
  /**
   * When the strategy offers the conversation the agent last sent, send it as `contextMessages` did (same
   * conversion, `system`, tools and cache breakpoint) with one text block asking for the summary after it, as a
   * plain Messages request: Anthropic reads that prefix from its prompt cache (0.1× the input price) instead of
   * a compaction request over the covered messages at the full price. It hits only when `model`, `system`,
   * `ttl`, `openingUserText` and `checkProvenance` are the loop's, and the loop runs without extended thinking
   * (a change of thinking settings drops the cached messages); with another model it costs about twice the
   * compaction request. `"auto"` (default) sends it only when that conversation was sent to `model` (a dated
   * snapshot suffix aside): as the request's `RequestOptions.model` says (`contextMessages` passes it), or, when
   * the request named none, as the latest assistant message that records a `metadata.provenance` says (an
   * Anthropic model); it sends the compaction request when neither tells. `true` and `false` decide without looking.
   */
  reuseCachedPrefix?: boolean | "auto";
}

/** The compaction request did not come back with a summary. */
export class CompactionSummaryError extends ContextError {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(
      "ANTHROPIC_COMPACTION",
      `Anthropic's compaction returned no summary (${reason}). Check the model supports compaction and the beta is enabled, or use another summarizer.`,
      options,
    );
  }
}

/**
 * `createSummaryStrategy({ summarizer: anthropicCompactionSummarizer(client, { model }) })`: each summary is one
 * compaction request over the messages to cover (the previous summary first, as a user message), and its
 * `compaction` block's readable `content` is the summary.
 */
export function anthropicCompactionSummarizer(client: Pick<Anthropic, "beta">, options: CompactionSummarizerOptions): CompactionSummarizer {
  const beta = options.beta ?? "compact-2026-09-04";
  const { reuseCachedPrefix = "auto" } = options;
  return async ({ messages, previousSummary, instructions, signal, maxTokens, conversation }) => {
    const reuse =
      reuseCachedPrefix === "auto"
        ? conversation !== undefined && wasReadBy(conversation, { provider: ANTHROPIC_PROVIDER, model: options.model })
        : reuseCachedPrefix;
    if (reuse && conversation !== undefined) return summarizeAfterPrefix(client, options, conversation, signal, maxTokens);
    const view: Message[] =
      previousSummary === undefined ? [...messages] : [{ role: "user", content: `Summary so far:\n${previousSummary}` }, ...messages];
    const request = toAnthropicMessages(view, { cache: false });
    const response = await client.beta.messages.create(
      {
        model: options.model,
        max_tokens: maxTokens ?? 4_096,
        ...(request.system === undefined ? {} : { system: request.system }),
        messages: request.messages,
        compaction: { type: "summarize", ...(options.instructions === "server" ? {} : { instructions }) },
        betas: [beta],
      },
      { signal },
    );
    const block = response.content.find((candidate) => candidate.type === "compaction");
    if (block === undefined) throw new CompactionSummaryError(`stop_reason ${String(response.stop_reason)}, no compaction block`);
    if (typeof block.content !== "string" || block.content === "")
      throw new CompactionSummaryError("the compaction block's content is empty");
    return block.content;
  };
}

/**
 * One Messages request: the agent's last request, then the ask. Its answer is bounded like the compaction's (twice
 * the length asked, so a slightly long one is not cut); no text in it (a tool call, say) is a summarizer error.
 */
async function summarizeAfterPrefix(
  client: Pick<Anthropic, "beta">,
  options: CompactionSummarizerOptions,
  conversation: PrefixConversation,
  signal: AbortSignal,
  maxTokens: number | undefined,
): Promise<string> {
  const response = await client.beta.messages.create(
    { model: options.model, max_tokens: maxTokens === undefined ? 4_096 : maxTokens * 2, ...prefixSummaryRequest(conversation, options) },
    { signal },
  );
  const text = response.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  if (text.trim() === "")
    throw new ContextSummarizerError(
      `model "${options.model}"`,
      `answered without text (stop_reason ${String(response.stop_reason)}); it must answer the summary request with text, not a tool call.`,
    );
  return text;
}
