// A summarizer for ctxkit's summary strategy backed by Anthropic's on-demand compaction (`compaction: { type: "summarize" }`).
import { ContextError, type Message } from "@ctxkit/core";
import type Anthropic from "@anthropic-ai/sdk";
import { toAnthropicMessages } from "../to-anthropic-messages.js";

/** What `@ctxkit/strategy-summary` hands a summarizer, declared here so this package depends on core alone. */
export interface CompactionSummarizerRequest {
  readonly messages: readonly Message[];
  readonly previousSummary: string | undefined;
  readonly instructions: string;
  readonly signal: AbortSignal;
  readonly maxTokens?: number;
}

export type CompactionSummarizer = (request: CompactionSummarizerRequest) => Promise<string>;

export interface CompactionSummarizerOptions {
  model: string;
  /** `"ctxkit"` (default) sends the summary strategy's instructions; `"server"` keeps Anthropic's own summarization prompt. */
  instructions?: "ctxkit" | "server";
  /** The beta that enables the `compaction` parameter. Default `compact-2026-09-04`. */
  beta?: string;
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
  return async ({ messages, previousSummary, instructions, signal, maxTokens }) => {
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
