// One configuration's figures over every session at the tune's budget, with each session's full-history reference replayed once.
import type { Message } from "@ctxkit/core";
import { factsUsedByCalls } from "../../replay/extract-facts.js";
import { FULL_HISTORY, managerSystem } from "../../replay/manager-system.js";
import type { PriceModel } from "../../replay/prompt-cache-pricing.js";
import { addCostTotals, type CostReplayInput, type CostTotals, emptyCostTotals, replayCost } from "../../replay/replay-cost.js";
import { addTotals, emptyTotals, MessageFacts } from "../../replay/view-judge.js";
import { figuresOf, type ReplayFigures } from "../replay/replay-results.js";
import { createTunedManager, type TunedConfig } from "./tuned-config.js";

export interface TuneSession {
  readonly file: string;
  readonly messages: readonly Message[];
}

export interface EvaluateOptions {
  readonly budget: number;
  readonly price: PriceModel;
  readonly signal?: AbortSignal;
  /** After each message replayed: the session's index and the messages replayed of this configuration's total. */
  readonly onProgress?: (state: { fileIndex: number; replayed: number; total: number }) => void;
}

/** Replays configurations over the same sessions: facts, token counts and the references are computed once. */
export interface ConfigurationEvaluator {
  /** The figures over every session (a totals row), or the first error a replay threw. */
  evaluate(label: string, config: TunedConfig): Promise<ReplayFigures>;
}

export function createEvaluator(sessions: readonly TuneSession[], options: EvaluateOptions): ConfigurationEvaluator {
  const { budget, price, signal } = options;
  const priceModels = [price];
  const inputs: CostReplayInput[] = sessions.map((session) => ({
    file: session.file,
    messages: session.messages,
    factsByCall: factsUsedByCalls(session.messages),
    facts: new MessageFacts(),
  }));
  const total = sessions.reduce((sum, session) => sum + session.messages.length, 0);
  let references: CostTotals | undefined;
  const reference = async (): Promise<CostTotals> => {
    if (references !== undefined) return references;
    const sum = emptyCostTotals(priceModels);
    for (const input of inputs)
      addCostTotals(
        sum,
        (await replayCost(FULL_HISTORY, input, budget, { priceModels, ...(signal === undefined ? {} : { signal }) })).cost,
      );
    references = sum;
    return sum;
  };
  return {
    async evaluate(label, config) {
      const system = managerSystem((onEvent) => createTunedManager(config, onEvent));
      const view = emptyTotals();
      const cost = emptyCostTotals(priceModels);
      let replayed = 0;
      for (const [fileIndex, input] of inputs.entries()) {
        const before = replayed;
        const report = await replayCost(system, input, budget, {
          priceModels,
          ...(signal === undefined ? {} : { signal }),
          onMessage: (added) => options.onProgress?.({ fileIndex, replayed: before + added, total }),
        });
        replayed = before + input.messages.length;
        addTotals(view, report.view);
        addCostTotals(cost, report.cost);
      }
      return figuresOf(label, undefined, budget, price, { view, cost, reference: await reference() });
    },
  };
}
