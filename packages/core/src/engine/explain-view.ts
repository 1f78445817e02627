// explainView's answer: for each history message, its form in a view and why, with the view's tokens by category.
import type { CompactionReason } from "../events.js";
import { hasToolCalls, isInstruction, isPinned, type Message } from "../messages/message.js";
import { isSummaryEntry, readSummaryCoverage } from "../messages/summary-coverage.js";
import { createViewDraft } from "../pipeline/view-draft.js";
import type { ViewEntry } from "../pipeline/strategy.js";
import type { ExplainedMessage, ExplainedSyntheticEntry, ViewExplanation, ViewTotals } from "../protocol.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { sharedPrefix } from "./compaction-receipts.js";
import { deriveMessageFates, type FateSources } from "./message-fates.js";

export interface ExplainInput {
  readonly history: readonly Message[];
  readonly tokensOf: (index: number) => number;
  readonly entries: readonly ViewEntry[];
  readonly sources: FateSources;
  readonly budget: number;
  readonly compaction: CompactionReason | undefined;
  readonly previousView: readonly Message[];
  readonly toolTokens: number;
  readonly protectFirst: number;
  readonly counter: TokenCounter;
}

export function explainEntries(input: ExplainInput): ViewExplanation {
  const { history, entries } = input;
  const draft = createViewDraft(entries);
  const positionOf = new Map<number, number>();
  entries.forEach((entry, position) => {
    if (entry.source.kind === "history") positionOf.set(entry.source.index, position);
  });
  const messages: ExplainedMessage[] = [];
  for (const run of deriveMessageFates(history.length, entries, input.sources)) {
    for (let index = run.from; index <= run.to; index += 1) {
      const message = history[index]!;
      const position = positionOf.get(index);
      const entry = position === undefined ? undefined : entries[position]!;
      const base = { index, role: message.role, tokens: input.tokensOf(index), viewTokens: entry?.tokens ?? 0 };
      if (run.fate === "kept") {
        const why = isInstruction(message)
          ? "protected"
          : isPinned(message) || entry?.pinned === true
            ? "pinned"
            : position !== undefined && position >= draft.currentTurnStart
              ? "current-turn"
              : index < input.protectFirst
                ? "protect-first"
                : "kept";
        messages.push({ ...base, inView: true, form: "verbatim", why });
      } else if (run.fate === "cleared" || run.fate === "trimmed") {
        messages.push({ ...base, inView: true, form: run.fate, why: "edited", strategy: run.strategy! });
      } else {
        const summary = run.summary === undefined ? {} : { summary: run.summary };
        messages.push({ ...base, inView: false, form: run.fate, why: run.fate, strategy: run.strategy!, ...summary });
      }
    }
  }
  const synthetic: ExplainedSyntheticEntry[] = [];
  entries.forEach((entry, viewIndex) => {
    if (entry.source.kind !== "synthetic") return;
    const coveredThrough = isSummaryEntry(entry) ? readSummaryCoverage(entry.message) : undefined;
    synthetic.push({
      viewIndex,
      origin: entry.source.origin,
      tokens: entry.tokens,
      ...(coveredThrough === undefined ? {} : { coveredThrough }),
    });
  });
  return {
    budget: input.budget,
    tokens: draft.tokens,
    ...(input.compaction === undefined ? {} : { compaction: input.compaction }),
    sharedPrefix: sharedPrefix(input.previousView, entries),
    messages,
    synthetic,
    totals: totalsOf(entries, input.toolTokens, input.counter),
  };
}

function totalsOf(entries: readonly ViewEntry[], tools: number, counter: TokenCounter): ViewTotals {
  const totals = { instructions: 0, tools, user: 0, assistantText: 0, toolCalls: 0, toolResults: 0, summaries: 0, other: 0 };
  for (const entry of entries) {
    const { message, tokens } = entry;
    if (entry.source.kind === "synthetic") {
      if (isSummaryEntry(entry)) totals.summaries += tokens;
      else if (message.role === "tool") totals.toolResults += tokens;
      else totals.other += tokens;
    } else if (isInstruction(message)) totals.instructions += tokens;
    else if (message.role === "user") totals.user += tokens;
    else if (message.role === "tool") totals.toolResults += tokens;
    else if (message.role === "assistant" && hasToolCalls(message)) {
      // The calls' share is what the text leaves of the message's count (the per-message overhead goes with the text).
      const text = textOf(message);
      const textTokens = Math.min(tokens, text === "" ? 0 : counter.count(text));
      totals.assistantText += textTokens;
      totals.toolCalls += tokens - textTokens;
    } else totals.assistantText += tokens;
  }
  return totals;
}

function textOf(message: Message): string {
  const { content } = message;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : "")).join("");
}
