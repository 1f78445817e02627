// One replay of a session through one context system at one budget: every view priced under prompt caching and judged.
import type { Message } from "@ctxkit/core";
import { isInstruction } from "@ctxkit/core/kit";
import { countRetained } from "./extract-facts.js";
import { billedTokens, cachedPrefixTokens, PRICE_MODELS, type PriceModel } from "./prompt-cache-pricing.js";
import { type MessageFacts, ViewJudge, type ViewTotals } from "./view-judge.js";

/** One replay at one budget: messages arrive, and before each model call the view is asked for. */
export interface ReplaySession {
  add(message: Message): Promise<void> | void;
  /** The view, or "refused" (ctxkit's `ContextBudgetError`). */
  request(): Promise<Message[] | "refused">;
  /**
   * Whether the last request compacted, for a system that knows (ctxkit's `context:pre_compact`); without it,
   * a view that is anything but the whole history counts as a compaction.
   */
  lastRequestCompacted?(): boolean | undefined;
  /** Releases what the session holds (a manager's store). */
  close?(): Promise<void> | void;
}

/** What a replay runs: a fresh session per budget, counting with the replay's exact counter. */
export interface ReplaySystem {
  create(budget: number, tokensOf: (message: Message) => number): ReplaySession;
}

/** Sums over one replay's requests, so replays add up. */
export interface CostTotals {
  /** Tokens of every view (exact o200k_base), and of their cached prefixes. */
  viewTokens: number;
  cachedTokens: number;
  /** Billed input, in base-price tokens, per price model name. */
  billed: Record<string, number>;
  /** Facts the calls used, and how many of them were in the view. */
  facts: number;
  retainedFacts: number;
  /** Views with no message but system ones. */
  emptyViews: number;
}

/** One replay's figures: the judge's and the bill's. */
export interface CostReport {
  readonly file: string;
  readonly budget: number;
  readonly view: ViewTotals;
  readonly cost: CostTotals;
  readonly milliseconds: number;
}

export function emptyCostTotals(priceModels: readonly PriceModel[] = PRICE_MODELS): CostTotals {
  return {
    viewTokens: 0,
    cachedTokens: 0,
    billed: Object.fromEntries(priceModels.map((model) => [model.name, 0])),
    facts: 0,
    retainedFacts: 0,
    emptyViews: 0,
  };
}

/** Adds `from` into `into`, bill by bill. */
export function addCostTotals(into: CostTotals, from: CostTotals): void {
  into.viewTokens += from.viewTokens;
  into.cachedTokens += from.cachedTokens;
  for (const [name, billed] of Object.entries(from.billed)) into.billed[name] = (into.billed[name] ?? 0) + billed;
  into.facts += from.facts;
  into.retainedFacts += from.retainedFacts;
  into.emptyViews += from.emptyViews;
}

export interface CostReplayInput {
  /** Names the session in the report. */
  readonly file: string;
  readonly messages: readonly Message[];
  /** The facts each call used, by the assistant message's index (`factsUsedByCalls`). */
  readonly factsByCall: ReadonlyMap<number, readonly string[]>;
  /** Shared by replays of the same messages, so each message is counted once. */
  readonly facts: MessageFacts;
}

export interface ReplayCostOptions {
  /** The bills to add up, by name. Default: `PRICE_MODELS` (Anthropic and OpenAI). */
  readonly priceModels?: readonly PriceModel[];
  /** Called after each message is added, with how many have been. */
  readonly onMessage?: (added: number) => void;
  /** Stops the replay between messages; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** Replays `input.messages` through `system`, asking for a view before each assistant message (each model call). */
export async function replayCost(
  system: ReplaySystem,
  input: CostReplayInput,
  budget: number,
  options: ReplayCostOptions = {},
): Promise<CostReport> {
  const { messages, factsByCall, facts } = input;
  const priceModels = options.priceModels ?? PRICE_MODELS;
  const session = system.create(budget, (message) => facts.tokensOf(message));
  const judge = new ViewJudge(budget, facts);
  const cost = emptyCostTotals(priceModels);
  const history: Message[] = [];
  let previousKeys: string[] = [];
  let milliseconds = 0;
  try {
    for (const [index, message] of messages.entries()) {
      options.signal?.throwIfAborted();
      if (message.role === "assistant" && history.length > 0) {
        const started = performance.now();
        const view = await session.request();
        milliseconds += performance.now() - started;
        judge.judge(history, view, session.lastRequestCompacted?.());
        const used = factsByCall.get(index) ?? [];
        cost.facts += used.length;
        if (view === "refused") {
          // Nothing is sent, and nothing the call used was in a view; the next request starts a new cache.
          previousKeys = [];
        } else {
          cost.retainedFacts += countRetained(used, view);
          if (view.every(isInstruction)) cost.emptyViews += 1;
          const keys = view.map((entry) => facts.keyOf(entry));
          const tokens = view.map((entry) => facts.tokensOf(entry));
          const total = tokens.reduce((sum, value) => sum + value, 0);
          const cached = cachedPrefixTokens(previousKeys, keys, tokens);
          cost.viewTokens += total;
          cost.cachedTokens += cached;
          for (const model of priceModels) cost.billed[model.name]! += billedTokens(model, total, cached);
          previousKeys = keys;
        }
      }
      await session.add(message);
      history.push(message);
      options.onMessage?.(index + 1);
    }
  } finally {
    await session.close?.();
  }
  return { file: input.file, budget, view: judge.totals, cost, milliseconds };
}
