// The `session-memory` strategy: a summary brought up to date between requests, and swapped into the view at compaction without an LLM call.
import type { Message } from "@ctxkit/core";
import {
  canDropUnit,
  createViewDraft,
  findToolUnits,
  parseConfig,
  type ObserveContext,
  type Strategy,
  type StrategyContext,
  type StrategyResult,
  type ViewDraft,
  type ViewEntry,
} from "@ctxkit/core/kit";
import { z } from "zod";
import { extractiveSummarizer } from "./extractive-summarizer.js";
import { collectFiles } from "./file-operations.js";
import { digestPrefixes } from "./history-digest.js";
import { buildInstructions, DEFAULT_PROMPTS } from "./prompts.js";
import { shortenForSummarizer } from "./shorten-for-summarizer.js";
import type { Summarizer } from "./summarizer.js";
import { createSummaryEntry, isSummaryEntry, readSummaryEntry } from "./summary-message.js";

export const SESSION_MEMORY_STRATEGY_NAME = "session-memory";
const MEMORY_KEY = "memory";

const optionsSchema = z.strictObject({
  summarizer: z
    .custom<Summarizer>((value) => typeof value === "function", {
      message: "expected a function ({ messages, previousSummary, instructions, signal }) => Promise<string>",
    })
    .optional(),
  /** New history tokens past the memory that start an update between requests. Default 4 000. */
  updateEveryTokens: z.number().int().positive().default(4_000),
  /** The newest messages the memory leaves out: they stay verbatim when it is swapped in. Default 12. */
  keepRecentMessages: z.number().int().nonnegative().default(12),
  /** The length asked of the summarizer. Default 1 500. */
  maxSummaryTokens: z.number().int().positive().default(1_500),
  /** How much of each tool output the summarizer sees. */
  maxToolOutputChars: z.number().int().positive().default(2_000),
});

export type SessionMemoryOptions = z.input<typeof optionsSchema>;

const memorySchema = z.object({
  version: z.literal(1),
  coveredThrough: z.number().int().nonnegative(),
  /** Digest of `history[0..coveredThrough]`: the memory applies only to a history with that prefix. */
  digest: z.string(),
  text: z.string(),
  tokensBefore: z.number().nonnegative(),
  readFiles: z.array(z.string()),
  modifiedFiles: z.array(z.string()),
});
type Memory = z.output<typeof memorySchema>;

/** The stored memory, when it still describes a prefix of `history`. */
function readMemory(state: StrategyContext["state"], history: readonly Message[]): Memory | undefined {
  const parsed = memorySchema.safeParse(state.get(MEMORY_KEY));
  if (!parsed.success || parsed.data.coveredThrough >= history.length) return undefined;
  return digestPrefixes(history, [parsed.data.coveredThrough]).get(parsed.data.coveredThrough) === parsed.data.digest
    ? parsed.data
    : undefined;
}

/** The last history index the memory may cover: the end of the last whole unit before the newest `keep` messages. */
function coverableThrough(history: readonly Message[], keep: number): number {
  const limit = history.length - keep;
  let through = -1;
  for (const unit of findToolUnits(history)) {
    if (unit.end > limit) break;
    through = unit.end - 1;
  }
  return through;
}

/**
 * Between requests (`observe`), once `updateEveryTokens` new tokens lie before the newest
 * `keepRecentMessages`, the summarizer extends the memory over them, off the request path, and the
 * memory is kept in the strategy's state (so a persistent session keeps it). At compaction (`apply`)
 * the droppable units the memory covers are replaced by it: no LLM call. Without a memory that applies,
 * `apply` changes nothing and the next strategy goes on.
 */
export function createSessionMemoryStrategy(options: SessionMemoryOptions = {}): Strategy {
  const resolved = parseConfig("@ctxkit/strategy-summary (session-memory)", optionsSchema, options);
  const summarizer = resolved.summarizer ?? extractiveSummarizer();

  async function observe(context: ObserveContext): Promise<void> {
    const { history, state } = context;
    const through = coverableThrough(history, resolved.keepRecentMessages);
    const previous = readMemory(state, history);
    const from = (previous?.coveredThrough ?? -1) + 1;
    if (through < from) return;
    const messages = history.slice(from, through + 1);
    let newTokens = 0;
    for (const message of messages) newTokens += context.countMessage(message);
    if (newTokens < resolved.updateEveryTokens) return;
    const text = await summarizer({
      messages: messages.map((message) => shortenForSummarizer(message, resolved.maxToolOutputChars)),
      previousSummary: previous?.text,
      instructions: buildInstructions(DEFAULT_PROMPTS, previous !== undefined, resolved.maxSummaryTokens),
      signal: context.signal,
      maxTokens: resolved.maxSummaryTokens,
    });
    if (context.signal.aborted || typeof text !== "string" || text.trim() === "") return;
    const files = collectFiles(messages, previous ?? undefined);
    const memory: Memory = {
      version: 1,
      coveredThrough: through,
      digest: digestPrefixes(history, [through]).get(through)!,
      text,
      tokensBefore: (previous?.tokensBefore ?? 0) + newTokens,
      readFiles: [...files.readFiles],
      modifiedFiles: [...files.modifiedFiles],
    };
    await state.set(MEMORY_KEY, memory);
  }

  function apply(view: ViewDraft, context: StrategyContext): StrategyResult {
    const unchanged: StrategyResult = { view, applied: false };
    const memory = readMemory(context.state, context.history);
    if (memory === undefined) return unchanged;
    const summary = createSummaryEntry(memory, context.countMessage);
    const entries: ViewEntry[] = [];
    let isPlaced = false;
    for (const unit of view.units) {
      const unitEntries = view.entries.slice(unit.start, unit.end);
      const isCovered = unitEntries.every((entry) =>
        entry.source.kind === "history" ? entry.source.index <= memory.coveredThrough : isSummaryEntry(entry),
      );
      const olderSummary = unitEntries.find(isSummaryEntry);
      // A summary already in the view that reaches further is better than this memory.
      if (olderSummary !== undefined && (readSummaryEntry(olderSummary)?.coveredThrough ?? Infinity) > memory.coveredThrough)
        return unchanged;
      if (isCovered && (olderSummary !== undefined || canDropUnit(view, unit, context.protectFirst))) {
        if (!isPlaced) entries.push(summary);
        isPlaced = true;
        continue;
      }
      entries.push(...unitEntries);
    }
    if (!isPlaced) return unchanged;
    const next = createViewDraft(entries);
    return next.tokens < view.tokens ? { view: next, applied: true } : unchanged;
  }

  return { name: SESSION_MEMORY_STRATEGY_NAME, apply, observe };
}
