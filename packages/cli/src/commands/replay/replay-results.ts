// The figures `ctxkit replay` reports: each configuration on each session at each budget, and their totals.
import type { Message } from "@ctxkit/core";
import { factsUsedByCalls } from "../../replay/extract-facts.js";
import type { PriceModel } from "../../replay/prompt-cache-pricing.js";
import { addCostTotals, type CostReport, type CostTotals, emptyCostTotals, replayCost } from "../../replay/replay-cost.js";
import { FULL_HISTORY } from "../../replay/manager-system.js";
import { addTotals, emptyTotals, MessageFacts, type ViewTotals } from "../../replay/view-judge.js";
import type { Configuration } from "./configurations.js";

export interface ReplayFigures {
  readonly configuration: string;
  /** The session file, or undefined for a configuration's totals over every file. */
  readonly file?: string;
  readonly budget: number;
  /** Model calls: views asked for (one before each assistant message). */
  readonly requests: number;
  /** Billed input ÷ the full history's, under the same prices. */
  readonly cost: number;
  readonly billedTokens: number;
  readonly fullHistoryBilledTokens: number;
  /** Cached prefix tokens ÷ all view tokens. */
  readonly cacheReadShare: number;
  /** Facts the calls used that were in their views ÷ all of them (1 when no call used any). */
  readonly retention: number;
  readonly facts: number;
  readonly retainedFacts: number;
  /** Views refused with ContextBudgetError. */
  readonly refusals: number;
  /** Views with a tool call and its result split (checkToolPairs). */
  readonly pairFaults: number;
  readonly overBudget: number;
  /** Tokens per view given (exact o200k_base). */
  readonly meanViewTokens: number;
  readonly compactions: number;
}

/** The sums one row is computed from. */
interface Sums {
  view: ViewTotals;
  cost: CostTotals;
  reference: CostTotals;
}

export function figuresOf(configuration: string, file: string | undefined, budget: number, price: PriceModel, sums: Sums): ReplayFigures {
  const { view, cost, reference } = sums;
  const billed = cost.billed[price.name] ?? 0;
  const referenceBilled = reference.billed[price.name] ?? 0;
  const views = view.requests - view.refused;
  return {
    configuration,
    ...(file === undefined ? {} : { file }),
    budget,
    requests: view.requests,
    // A session with no model call bills nothing either way: the same as the full history.
    cost: referenceBilled === 0 ? 1 : billed / referenceBilled,
    billedTokens: billed,
    fullHistoryBilledTokens: referenceBilled,
    cacheReadShare: cost.viewTokens === 0 ? 0 : cost.cachedTokens / cost.viewTokens,
    retention: cost.facts === 0 ? 1 : cost.retainedFacts / cost.facts,
    facts: cost.facts,
    retainedFacts: cost.retainedFacts,
    refusals: view.refused,
    pairFaults: view.pairViolations,
    overBudget: view.overBudget,
    meanViewTokens: views === 0 ? 0 : cost.viewTokens / views,
    compactions: view.compactions,
  };
}

export interface ReplaySessionInput {
  readonly file: string;
  readonly messages: readonly Message[];
}

export interface ReplayRunOptions {
  readonly budgets: readonly number[];
  readonly price: PriceModel;
  readonly signal?: AbortSignal;
  /** After each message replayed, with the messages replayed so far over the whole run. */
  readonly onProgress?: (state: { file: string; fileIndex: number; replayed: number; total: number }) => void;
  /** A replay that threw: reported, and the run goes on with the next one. */
  readonly onFailure?: (failure: { file: string; configuration: string; budget: number; error: unknown }) => void;
}

export interface ReplayRun {
  readonly rows: ReplayFigures[];
  readonly totals: ReplayFigures[];
}

/**
 * Replays every session through every configuration at every budget, and the full history as the reference each
 * cost is divided by. Totals add each configuration's sums over the sessions it replayed without failing.
 */
export async function runReplays(
  sessions: readonly ReplaySessionInput[],
  configurations: readonly Configuration[],
  options: ReplayRunOptions,
): Promise<ReplayRun> {
  const { budgets, price, signal } = options;
  const priceModels = [price];
  const total = sessions.reduce((sum, session) => sum + session.messages.length, 0) * budgets.length * (configurations.length + 1);
  let replayed = 0;
  const rows: ReplayFigures[] = [];
  const sums = new Map<string, Sums>();
  for (const [fileIndex, session] of sessions.entries()) {
    const input = {
      file: session.file,
      messages: session.messages,
      factsByCall: factsUsedByCalls(session.messages),
      facts: new MessageFacts(),
    };
    const replay = async (system: Configuration["system"], budget: number): Promise<CostReport> => {
      const before = replayed;
      try {
        return await replayCost(system, input, budget, {
          priceModels,
          ...(signal === undefined ? {} : { signal }),
          onMessage: (added) => {
            replayed = before + added;
            options.onProgress?.({ file: session.file, fileIndex, replayed, total });
          },
        });
      } finally {
        replayed = before + session.messages.length;
      }
    };
    for (const budget of budgets) {
      const reference = await replay(FULL_HISTORY, budget);
      for (const configuration of configurations) {
        let report: CostReport;
        try {
          report = await replay(configuration.system, budget);
        } catch (error) {
          if (signal?.aborted === true) throw error;
          options.onFailure?.({ file: session.file, configuration: configuration.label, budget, error });
          continue;
        }
        const own: Sums = { view: report.view, cost: report.cost, reference: reference.cost };
        rows.push(figuresOf(configuration.label, session.file, budget, price, own));
        const key = `${configuration.label}\u0000${budget}`;
        const sum = sums.get(key) ?? { view: emptyTotals(), cost: emptyCostTotals(priceModels), reference: emptyCostTotals(priceModels) };
        addTotals(sum.view, report.view);
        addCostTotals(sum.cost, report.cost);
        addCostTotals(sum.reference, reference.cost);
        sums.set(key, sum);
      }
    }
  }
  const totals = configurations.flatMap((configuration) =>
    budgets.flatMap((budget) => {
      const sum = sums.get(`${configuration.label}\u0000${budget}`);
      return sum === undefined ? [] : [figuresOf(configuration.label, undefined, budget, price, sum)];
    }),
  );
  return { rows, totals };
}
