// A view's tokens by category, as explainView's totals name them: what the inspect page stacks in each request's bar.
import { type Message, type TokenCounter, tiktokenCounter } from "@ctxkit/core";
import {
  countMessageTokens,
  hasToolCalls,
  isInstruction,
  isSynthetic,
  readSummaryCoverage,
  SUMMARY_SOURCE,
  textOfContent,
} from "@ctxkit/core/kit";

/** The categories in the order the page stacks them, bottom first; the keys of core's `ViewTotals`. */
export const CATEGORIES = ["instructions", "tools", "user", "assistantText", "toolCalls", "toolResults", "summaries", "other"] as const;

export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Readonly<Record<Category, string>> = {
  instructions: "system and instructions",
  tools: "tools",
  user: "user",
  assistantText: "assistant",
  toolCalls: "tool calls",
  toolResults: "tool results",
  summaries: "summaries",
  other: "notices and repairs",
};

/** Tokens per category, in `CATEGORIES` order. */
export type CategoryTokens = number[];

export const emptyCategories = (): CategoryTokens => CATEGORIES.map(() => 0);

const INDEX = Object.fromEntries(CATEGORIES.map((category, index) => [category, index])) as Record<Category, number>;

function isSummaryMessage(message: Message): boolean {
  return readSummaryCoverage(message) !== undefined || message.metadata?.ctxkit?.["source"] === SUMMARY_SOURCE;
}

/**
 * Counts each message once (views reuse the history's frozen objects) and splits it into categories the
 * way core's explainView does: an assistant message's calls are what its text leaves of its count.
 */
export class ViewCategorizer {
  private readonly shares = new WeakMap<Message, readonly (readonly [number, number])[]>();

  /**
   * `countOf` gives a message's whole count; by default `countMessageTokens` with `counter`. A replay passes its
   * own cached count (the replay library's `MessageFacts`), so no message is tokenized twice.
   */
  constructor(
    readonly counter: TokenCounter = tiktokenCounter("o200k_base"),
    private readonly countOf: (message: Message) => number = (message) => countMessageTokens(message, counter),
  ) {}

  /** The message's whole count, with the per-message overhead. */
  tokensOf(message: Message): number {
    return this.sharesOf(message).reduce((sum, [, tokens]) => sum + tokens, 0);
  }

  /** Adds the message's tokens into `into`, category by category. */
  add(into: CategoryTokens, message: Message): void {
    for (const [index, tokens] of this.sharesOf(message)) into[index] = (into[index] ?? 0) + tokens;
  }

  /** A whole view's tokens by category. */
  categoriesOf(view: readonly Message[]): CategoryTokens {
    const totals = emptyCategories();
    for (const message of view) this.add(totals, message);
    return totals;
  }

  private sharesOf(message: Message): readonly (readonly [number, number])[] {
    let shares = this.shares.get(message);
    if (shares === undefined) {
      shares = this.split(message, this.countOf(message));
      this.shares.set(message, shares);
    }
    return shares;
  }

  private split(message: Message, tokens: number): (readonly [number, number])[] {
    if (isSynthetic(message) && !isInstruction(message)) {
      if (isSummaryMessage(message)) return [[INDEX.summaries, tokens]];
      return [[message.role === "tool" ? INDEX.toolResults : INDEX.other, tokens]];
    }
    if (isInstruction(message)) return [[INDEX.instructions, tokens]];
    if (message.role === "user") return [[INDEX.user, tokens]];
    if (message.role === "tool") return [[INDEX.toolResults, tokens]];
    if (message.role === "assistant" && hasToolCalls(message)) {
      const text = textOfContent(message.content);
      const textTokens = Math.min(tokens, text === "" ? 0 : this.counter.count(text));
      return [
        [INDEX.assistantText, textTokens],
        [INDEX.toolCalls, tokens - textTokens],
      ];
    }
    return [[INDEX.assistantText, tokens]];
  }
}
