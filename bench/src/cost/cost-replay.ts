// One replay of a transcript through one system at one budget: every view priced under prompt caching and judged.
import type { Message } from "@ctxkit/core";
import { isInstruction } from "@ctxkit/core/kit";
import { type MessageFacts, ViewJudge } from "../replay/view-judge.js";
import type { CostReport, CostTotals } from "./cost-protocol.js";
import type { CostSystem } from "./cost-systems.js";
import { countRetained } from "./extract-facts.js";
import { billedTokens, cachedPrefixTokens, PRICE_MODELS } from "./prompt-cache-pricing.js";

export function emptyCostTotals(): CostTotals {
  return {
    viewTokens: 0,
    cachedTokens: 0,
    billed: Object.fromEntries(PRICE_MODELS.map((model) => [model.name, 0])),
    facts: 0,
    retainedFacts: 0,
    emptyViews: 0,
  };
}

export interface CostReplayInput {
  readonly file: string;
  readonly messages: readonly Message[];
  /** The facts each call used, by the assistant message's index (`factsUsedByCalls`). */
  readonly factsByCall: ReadonlyMap<number, readonly string[]>;
  /** Shared by replays of the same messages, so each message is counted once. */
  readonly facts: MessageFacts;
}

/** Replays `input.messages` through `system`, asking for a view before each assistant message (each model call). */
export async function replayCost(system: CostSystem, input: CostReplayInput, budget: number): Promise<CostReport> {
  const { messages, factsByCall, facts } = input;
  const session = system.create(budget, (message) => facts.tokensOf(message));
  const judge = new ViewJudge(budget, facts);
  const cost = emptyCostTotals();
  const history: Message[] = [];
  let previousKeys: string[] = [];
  let milliseconds = 0;
  for (const [index, message] of messages.entries()) {
    if (message.role === "assistant" && history.length > 0) {
      const started = performance.now();
      const view = await session.request();
      milliseconds += performance.now() - started;
      judge.judge(history, view, undefined);
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
        for (const model of PRICE_MODELS) cost.billed[model.name]! += billedTokens(model, total, cached);
        previousKeys = keys;
      }
    }
    await session.add(message);
    history.push(message);
  }
  return { file: input.file, budget, view: judge.totals, cost, milliseconds };
}
