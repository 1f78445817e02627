// Every system the cost benchmark replays, by label: baselines, the peers as the bench runs them, ctxkit's presets and mixes.
import { managerSystem, type ReplaySession, type ReplaySystem } from "@ctxkit/cli/replay";
import { createSimpleContext, type SimpleContextConfig } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { createSessionMemoryStrategy, createSummaryStrategy } from "@ctxkit/strategy-summary";
import { createMeter } from "../peers/context-system.js";
import { MemoizedListCounter } from "../peers/memoized-list-counter.js";
import { maskObservations, truncateToBudget } from "./observation-masking.js";

/** One replay at one budget, as @ctxkit/cli's replay library drives it. */
export type CostSession = ReplaySession;

export interface CostSystem extends ReplaySystem {
  readonly label: string;
  /** One line for the notes: what exactly runs. */
  readonly summary: string;
  /** A variant that takes one lever out of the default: in the tables, not on the chart. */
  readonly isAblation?: boolean;
  /** A change of the default under evaluation: compared with both incumbents at every budget, and not on the chart (none at present). */
  readonly isCandidate?: boolean;
  create(budget: number, tokensOf: (message: Message) => number): CostSession;
}

/** A stateless system: each view computed from the whole history. */
function stateless(
  label: string,
  summary: string,
  viewOf: (history: readonly Message[], budget: number, tokensOf: (message: Message) => number) => Message[],
): CostSystem {
  return {
    label,
    summary,
    create(budget, tokensOf) {
      const history: Message[] = [];
      return {
        add: (message) => void history.push(message),
        request: async () => viewOf(history, budget, tokensOf),
      };
    },
  };
}

/** ctxkit over context-simple, replayed as `ctxkit replay` replays a configuration. */
function ctxkit(label: string, summary: string, config: () => SimpleContextConfig): CostSystem {
  return { label, summary, ...managerSystem((onEvent) => createSimpleContext({ ...config(), onEvent })) };
}

/** A variant of the default with one lever taken out. */
function ablation(label: string, summary: string, config: () => SimpleContextConfig): CostSystem {
  return { ...ctxkit(label, summary, config), isAblation: true };
}

/** A peer from src/peers, through its ContextSession; LangChain's counter memoized (the same counts, so the same views). */
function peer(
  label: string,
  summary: string,
  load: () => Promise<{ add(message: Message): unknown; request(budget: number): Promise<unknown>; decode(view: unknown): Message[] }>,
): CostSystem {
  return {
    label,
    summary,
    create(budget) {
      const session = load();
      return {
        add: async (message) => void (await session).add(message),
        async request() {
          const ready = await session;
          return ready.decode(await ready.request(budget));
        },
      };
    },
  };
}

/** The compaction threshold and target before the default changed to 0.8 and 0.25. */
const PREVIOUS_RATIOS = { compactThreshold: 0.92, targetRatio: 0.6 };
/** The default before it compacted from 0.7 to 0.2, shortened old messages to stubs before truncating and listed 200 identifiers. */
const DEFAULT_BEFORE_STUBS = {
  compactThreshold: 0.8,
  targetRatio: 0.25,
  strategies: [
    { name: "clear-tool-results", options: { keepRecent: 1, truncateFollows: true } },
    "trim-long-text",
    "truncate",
    "shorten-to-fit",
  ],
} satisfies SimpleContextConfig;
/** The default pipeline's stub step, as DEFAULT_PIPELINE sets it (it ends the pipeline). */
const STUBS = {
  name: "shorten-to-fit",
  options: { maxIdentifiers: 60, budgetTokensPerIdentifier: 120, maxTextChars: 200, maxArgumentChars: 80 },
} as const;
/** The default pipeline's clear-tool-results: the newest result kept, placeholders of 200 identifiers at most, none a newer result shows. */
const CLEAR = {
  name: "clear-tool-results",
  options: { keepRecent: 1, truncateFollows: true, maxIdentifiers: 200, skipShownIdentifiers: true },
} as const;
/** The default pipeline's truncate: a note of the identifiers the dropped units held, one per 240 tokens of the budget, 200 at most. */
const NOTE = { name: "truncate", options: { noteIdentifiers: 200, budgetTokensPerIdentifier: 240 } } as const;
/** The default before its placeholders left out shown identifiers and its truncation left a note (same thresholds). */
const DEFAULT_BEFORE_NOTE = {
  strategies: [
    { name: "clear-tool-results", options: { keepRecent: 1, truncateFollows: true, maxIdentifiers: 200 } },
    "trim-long-text",
    "truncate",
    STUBS,
  ],
} satisfies SimpleContextConfig;

export const COST_SYSTEMS: readonly CostSystem[] = [
  stateless("full history", "full history: every message, every time (the reference of the cost ratios).", (history) => history.slice()),
  stateless(
    "masking (last 10)",
    "masking (last 10): observation masking, every tool output but the newest 10 replaced by a placeholder; no budget.",
    (history) => maskObservations(history),
  ),
  stateless(
    "masking + truncate",
    "masking + truncate: the masked view, then its oldest whole units dropped until it fits the budget (exact o200k_base counts).",
    (history, budget, tokensOf) => truncateToBudget(maskObservations(history), budget, tokensOf),
  ),
  peer(
    "langchain trimMessages",
    "langchain trimMessages: as the replay benchmark runs it (docs' options, countTokensApproximately), its counter memoized per message.",
    async () => {
      const [{ createTrimSession }, { approximateMeasure }] = await Promise.all([
        import("../peers/langchain-trim.js"),
        import("../peers/langchain-counters.js"),
      ]);
      return createTrimSession(new MemoizedListCounter(approximateMeasure, createMeter()).count);
    },
  ),
  peer(
    "ai-sdk recipe",
    "ai-sdk recipe: the cookbook's prepareStep compaction (pruneMessages, then the last N messages that fit), as the replay benchmark runs it.",
    async () => (await import("../peers/ai-sdk-prune.js")).createPruneSession(createMeter()),
  ),
  ctxkit(
    "ctxkit default",
    "ctxkit default: createSimpleContext() with no preset or strategies (what createContextManager({ store }) and mount run).",
    () => ({}),
  ),
  ctxkit(
    "ctxkit default before the note",
    "ctxkit default before the note: the default before its placeholders left out identifiers a newer result shows and truncate left a note of the identifiers it dropped (the same thresholds; clear-tool-results listing 200 identifiers, trim-long-text, truncate, shorten-to-fit's stubs).",
    () => DEFAULT_BEFORE_NOTE,
  ),
  ctxkit(
    "ctxkit previous default",
    "ctxkit previous default: an earlier default (threshold 0.92, target 0.6; clear-tool-results keeping 5 with a bare placeholder, trim-long-text, truncate).",
    () => ({
      ...PREVIOUS_RATIOS,
      strategies: [{ name: "clear-tool-results", options: { maxIdentifiers: 0 } }, "trim-long-text", "truncate"],
    }),
  ),
  ctxkit(
    "ctxkit default before stubs",
    "ctxkit default before stubs: the default of two changes ago (threshold 0.8, target 0.25; clear-tool-results listing 80 identifiers, trim-long-text, truncate, shorten-to-fit last).",
    () => DEFAULT_BEFORE_STUBS,
  ),
  ablation(
    "default, bare placeholders",
    "default, bare placeholders: the default with placeholders and stubs that list no identifiers and no note (maxIdentifiers 0, noteIdentifiers 0).",
    () => ({
      strategies: [
        { name: "clear-tool-results", options: { keepRecent: 1, truncateFollows: true, maxIdentifiers: 0 } },
        "trim-long-text",
        "truncate",
        { ...STUBS, options: { ...STUBS.options, maxIdentifiers: 0 } },
      ],
    }),
  ),
  ablation(
    "default, placeholders list shown identifiers",
    "default, placeholders list shown identifiers: the default with placeholders that also list identifiers a newer result shows (no skipShownIdentifiers).",
    () => ({ strategies: [{ ...CLEAR, options: { ...CLEAR.options, skipShownIdentifiers: false } }, "trim-long-text", NOTE, STUBS] }),
  ),
  ablation("default, no note", "default, no note: the default with a truncate that leaves no note of the identifiers it dropped.", () => ({
    strategies: [CLEAR, "trim-long-text", "truncate", STUBS],
  })),
  ablation("default, no shorten-to-fit", "default, no shorten-to-fit: the default pipeline without its stub step.", () => ({
    strategies: [CLEAR, "trim-long-text", NOTE],
  })),
  ablation(
    "default, stubs before truncate",
    "default, stubs before truncate: shorten-to-fit before the truncation (with truncateFollows), so old units are stubbed before any is dropped.",
    () => ({
      strategies: [CLEAR, "trim-long-text", { ...STUBS, options: { ...STUBS.options, truncateFollows: true } }, NOTE],
    }),
  ),
  ablation(
    "default, shorten-to-fit's own stubs",
    "default, shorten-to-fit's own stubs: the default with shorten-to-fit at its own defaults (25 identifiers, texts to 400 characters, arguments to 120).",
    () => ({
      strategies: [CLEAR, "trim-long-text", NOTE, "shorten-to-fit"],
    }),
  ),
  ablation(
    "default, keepRecent 5",
    "default, keepRecent 5: the default with clear-tool-results keeping its own default of 5 results.",
    () => ({
      strategies: [
        { ...CLEAR, options: { truncateFollows: true, maxIdentifiers: 200, skipShownIdentifiers: true } },
        "trim-long-text",
        NOTE,
        STUBS,
      ],
    }),
  ),
  ablation(
    "default at 0.8 / 0.25",
    "default at 0.8 / 0.25: the default pipeline with the threshold and target before this change.",
    () => ({
      compactThreshold: 0.8,
      targetRatio: 0.25,
    }),
  ),
  ablation(
    "default at 0.92 / 0.6",
    "default at 0.92 / 0.6: the default pipeline with the previous threshold and target.",
    () => PREVIOUS_RATIOS,
  ),
  ctxkit("ctxkit truncate", 'ctxkit truncate: preset "truncate".', () => ({ preset: "truncate" })),
  ctxkit(
    "ctxkit summarize",
    'ctxkit summarize: preset "summarize" with createSummaryStrategy() (the extractive summarizer, no LLM).',
    () => ({
      preset: "summarize",
      summaryStrategy: createSummaryStrategy(),
    }),
  ),
  ctxkit(
    "ctxkit microcompact mix",
    "ctxkit microcompact mix: strategies [microcompact, clear-tool-results, trim-long-text, truncate].",
    () => ({
      strategies: ["microcompact", "clear-tool-results", "trim-long-text", "truncate"],
    }),
  ),
  ctxkit(
    "ctxkit session-memory mix",
    "ctxkit session-memory mix: strategies [clear-tool-results, session memory (extractive, every 2,000 tokens), truncate].",
    () => ({
      strategies: ["clear-tool-results", createSessionMemoryStrategy({ updateEveryTokens: 2_000 }), "truncate"],
    }),
  ),
];

export function findCostSystem(label: string): CostSystem {
  const system = COST_SYSTEMS.find((candidate) => candidate.label === label);
  if (system === undefined) throw new Error(`Unknown cost system ${label}`);
  return system;
}
