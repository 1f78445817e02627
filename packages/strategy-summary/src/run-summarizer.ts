// Extends a summary over newly covered history messages: one incremental summarizer call per chunk, each saved as a checkpoint.
import { ContextSummarizerError, type Message, type TokenCounter } from "@ctxkit/core";
import { withTimeout, type PreviousRequest } from "@ctxkit/core/kit";
import type { Checkpoint, CheckpointStore } from "./checkpoint-store.js";
import { coverInConversation } from "./conversation-cover.js";
import { collectFiles, NO_FILES } from "./file-operations.js";
import type { SummaryBase } from "./find-base.js";
import { fitText } from "./fit-text.js";
import { digestPrefixes } from "./history-digest.js";
import { buildInstructions, type SummaryPrompts } from "./prompts.js";
import { unwrapSummary } from "./render-transcript.js";
import { shortenForSummarizer } from "./shorten-for-summarizer.js";
import type { Summarizer } from "./summarizer.js";

export interface ExtensionInput {
  readonly base: SummaryBase | undefined;
  /** History indices the new summary adds, ascending. */
  readonly newIndices: readonly number[];
  /** History indices up to `coveredThrough` it leaves out, ascending. */
  readonly verbatim: readonly number[];
  readonly coveredThrough: number;
  /** Tokens of `history[index]` before any strategy shortened it. */
  originalTokens(index: number): number;
}

export interface SummarizerSettings {
  readonly summarizer: Summarizer;
  readonly prompts: SummaryPrompts;
  readonly maxSummaryTokens: number;
  readonly maxInputTokens: number;
  readonly maxToolOutputChars: number;
  /** How long one summarizer call may take. */
  readonly timeoutMs: number;
  /** What the caller of a forced compaction asked the summary to keep or stress (`StrategyContext.instructions`). */
  readonly instructions?: string | undefined;
  readonly counter: TokenCounter;
  countMessage(message: Message): number;
  /** The request the model last saw (`StrategyContext.previousRequest`), offered to the summarizer as a cached prefix. */
  readonly previousRequest?: PreviousRequest | undefined;
}

/** Tool results stay in the chunk of the call before them, so each chunk reads on its own. */
function chunkIndices(
  history: readonly Message[],
  indices: readonly number[],
  tokensOf: (index: number) => number,
  limit: number,
): number[][] {
  const chunks: number[][] = [];
  let chunk: number[] = [];
  let tokens = 0;
  for (const [position, index] of indices.entries()) {
    const startsGroup = history[index]!.role !== "tool" || position === 0;
    if (startsGroup && chunk.length > 0 && tokens + tokensOf(index) > limit) {
      chunks.push(chunk);
      chunk = [];
      tokens = 0;
    }
    chunk.push(index);
    tokens += tokensOf(index);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * Calls the summarizer with the previous text once (as `previousSummary`) and only messages it has
 * never seen, chunk by chunk. Each result is stored before the next call, so an abort or a failure
 * keeps the progress made. Returns the checkpoint that covers everything.
 */
export async function extendSummary(
  input: ExtensionInput,
  history: readonly Message[],
  settings: SummarizerSettings,
  store: CheckpointStore,
  signal: AbortSignal,
): Promise<Checkpoint> {
  const { maxSummaryTokens, maxToolOutputChars, counter } = settings;
  const shortened = new Map(input.newIndices.map((index) => [index, shortenForSummarizer(history[index]!, maxToolOutputChars)]));
  const tokensOf = (index: number): number => {
    const message = shortened.get(index)!;
    return message === history[index] ? input.originalTokens(index) : settings.countMessage(message);
  };
  const overhead = maxSummaryTokens + counter.count(buildInstructions(settings.prompts, true, maxSummaryTokens, settings.instructions));
  const chunks = chunkIndices(history, input.newIndices, tokensOf, Math.max(1, settings.maxInputTokens - overhead));
  // A chunk's checkpoint covers up to the next chunk, and never less than the summary it extends.
  const baseEnd = input.base?.coveredThrough ?? -1;
  const ends = chunks.map((_, position) =>
    position === chunks.length - 1 ? input.coveredThrough : Math.max(baseEnd, chunks[position + 1]![0]! - 1),
  );
  const digests = digestPrefixes(history, ends);
  let text = input.base?.text;
  let files = input.base?.files ?? NO_FILES;
  let tokensBefore = input.base?.tokensBefore ?? 0;
  let checkpoint: Checkpoint | undefined;
  for (const [position, chunk] of chunks.entries()) {
    signal.throwIfAborted();
    const previousSummary = text;
    const instructions = buildInstructions(settings.prompts, previousSummary !== undefined, maxSummaryTokens, settings.instructions);
    // One call over a run of the last request can reuse that request's cached prefix; chunks of a longer span cannot.
    const conversation =
      chunks.length === 1
        ? coverInConversation(
            settings.previousRequest,
            chunk.map((index) => history[index]!),
            { instructions, previousSummary },
          )
        : undefined;
    // A summarizer that never answers must not hold the request: past its time it counts as a failure.
    const answer = await withTimeout("The summarizer", settings.timeoutMs, signal, (callSignal) =>
      settings.summarizer({
        messages: chunk.map((index) => shortened.get(index)!),
        previousSummary,
        instructions,
        signal: callSignal,
        maxTokens: maxSummaryTokens,
        ...(conversation === undefined ? {} : { conversation }),
      }),
    );
    signal.throwIfAborted();
    if (typeof answer !== "string" || unwrapSummary(answer) === "") {
      throw new ContextSummarizerError("function", "returned no summary text: it must resolve to a non-empty string.");
    }
    text = fitText(unwrapSummary(answer), maxSummaryTokens, counter);
    files = collectFiles(
      chunk.map((index) => history[index]!),
      files,
    );
    for (const index of chunk) tokensBefore += input.originalTokens(index);
    const coveredThrough = ends[position]!;
    // Left out so far: what stays verbatim, and what a later chunk adds (earlier verbatim messages folded in).
    const later = chunks.slice(position + 1).flat();
    const verbatim = [...input.verbatim, ...later].filter((index) => index <= coveredThrough).sort((left, right) => left - right);
    checkpoint = { coveredThrough, digest: digests.get(coveredThrough)!, verbatim, text, tokensBefore, ...files };
    await store.save(checkpoint);
  }
  if (checkpoint === undefined) throw new RangeError("extendSummary needs at least one new message.");
  return checkpoint;
}
