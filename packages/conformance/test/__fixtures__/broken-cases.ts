// Every broken module the kit keeps, with the property that must catch it and the options it runs with.
import * as contextSimple from "../../../context-simple/src/index.js";
import { createSummaryStrategy } from "../../../strategy-summary/src/summary-strategy.js";
import type { ConformanceOptions } from "../../src/index.js";
import type { SessionSettings } from "../../src/subject/session-settings.js";
import type { ConformanceSubject } from "../../src/subject/subject.js";
import * as broken from "./broken-modules.js";
import { liesInReceipts } from "./lying-receipts-module.js";
import { compactsPastThrough, servesCompactedViewAfterUndo } from "./undo-and-partial-modules.js";
import { naiveKeepLast } from "./naive-keep-last.js";
import { shrinksInItsOwnTokens } from "./overflow-shrink-modules.js";
import { createSharedPinsFactory } from "./shared-pins-module.js";
import { createSummarizingModule, summarizingOptions } from "./summarizer-input-module.js";
import { createRestartableModule, restartableConfig } from "./restartable-module.js";
import * as seedSensitive from "./seed-sensitive-modules.js";
import { neverCompacts } from "./unexercising-modules.js";

/** Properties that need a declared feature: run with it, and replayed against a healthy module with it. */
export const restartOptions = { config: restartableConfig, restart: true, summarizer: true } as const;
/** A summary pipeline on the kit's recording summarizer. */
export const summaryOptions = {
  config: ({ summarizer }: SessionSettings) => ({ strategies: ["clear-tool-results", createSummaryStrategy({ summarizer }), "truncate"] }),
  summarizer: true,
} as const;

export interface BrokenCase {
  readonly flaw: string;
  readonly module: ConformanceSubject;
  readonly property: string;
  /** What the module declares (restart, a summarizer); none by default. */
  readonly options?: Pick<ConformanceOptions, "config" | "restart" | "summarizer" | "sharedStore">;
  /** A module that passes the property with the same options; context-simple by default. */
  readonly healthy?: ConformanceSubject;
  /** What the failure must say, when the property can fail in several ways. */
  readonly reason?: RegExp;
  /**
   * The shrunk counterexample stays small (a few short messages). Default true. `false` for a flaw that
   * shows only near a threshold of a large view: shrinking it takes long and keeps the large message.
   */
  readonly shrinksSmall?: boolean;
  /** The most messages a list of the shrunk counterexample may hold (when `shrinksSmall`). Default 4. */
  readonly shrunkMessages?: number;
}

/** Broken modules that need a declared feature. */
export const FEATURE_CASES: readonly BrokenCase[] = [
  {
    flaw: "claims summary coverage for a message it dropped",
    module: broken.overclaimsSummaryCoverage,
    property: "summary-coverage",
    options: summaryOptions,
  },
  {
    flaw: "drops a current-turn tool unit and claims its summary covers it",
    module: seedSensitive.dropsCurrentTurnUnitUnderSummary,
    property: "summary-coverage",
    options: summaryOptions,
    shrinksSmall: false,
  },
  {
    flaw: "puts its summary between a tool call and its results",
    module: seedSensitive.putsSummaryInsideUnit,
    property: "unit-integrity",
    options: summaryOptions,
    shrinksSmall: false,
  },
  {
    flaw: "sends the summarizer tool calls without their results",
    module: createSummarizingModule("sends-calls-without-results", "calls-without-results"),
    property: "partial-history-units",
    options: summarizingOptions,
    healthy: createSummarizingModule("sends-whole-units", "whole-units"),
    shrinksSmall: false,
  },
  {
    flaw: "loses a pin when two instances on one session pin at once",
    module: createSharedPinsFactory("read-modify-write"),
    property: "shared-state",
    options: { sharedStore: true },
    healthy: createSharedPinsFactory("atomic"),
  },
  {
    flaw: "loses its last message in a restart",
    module: createRestartableModule("drops-last-message", "drops-last-message"),
    property: "restart",
    options: restartOptions,
    healthy: createRestartableModule("healthy", "none"),
  },
  {
    flaw: "forgets its checkpoints in a restart",
    module: createRestartableModule("forgets-state", "forgets-state"),
    property: "restart",
    options: restartOptions,
    healthy: createRestartableModule("healthy", "none"),
  },
  {
    flaw: "forgets its compaction receipts and their undo in a restart",
    module: createRestartableModule("forgets-state", "forgets-state"),
    property: "undo-compaction",
    options: restartOptions,
    healthy: createRestartableModule("healthy", "none"),
  },
];

/** Broken modules the kit catches with no declaration at all. */
export const PLAIN_CASES: readonly BrokenCase[] = [
  { flaw: "splits a tool pair", module: broken.splitsToolPair, property: "pairing" },
  { flaw: "drops a parallel call's sibling result", module: broken.dropsParallelSibling, property: "pairing" },
  {
    flaw: "mutates the stored history during compaction",
    module: broken.mutatesHistoryDuringCompaction,
    property: "non-destructive",
    shrinksSmall: false,
  },
  { flaw: "reorders messages", module: broken.reordersMessages, property: "order" },
  { flaw: "overshoots the budget", module: broken.overshootsBudget, property: "budget" },
  { flaw: "drops the system message", module: broken.dropsSystemMessage, property: "preservation" },
  { flaw: "loses a message under concurrent adds", module: broken.losesConcurrentAdds, property: "concurrency" },
  { flaw: "rewrites the start of every view", module: broken.rewritesViewPrefix, property: "prefix-stability" },
  { flaw: "drops the oldest message on resume", module: broken.dropsOldestOnResume, property: "resume" },
  { flaw: "ignores clear()", module: broken.ignoresClear, property: "clear" },
  { flaw: "swallows invalid messages", module: broken.swallowsInvalidMessages, property: "validation" },
  { flaw: "compacts without announcing it", module: broken.compactsSilently, property: "events", shrinksSmall: false },
  { flaw: "compacts for twice the budget", module: broken.compactsForTwiceTheBudget, property: "compact" },
  { flaw: "compacts and reports it did not", module: broken.hidesItsCompaction, property: "compact" },
  {
    flaw: "recovers from an overflow with the same view",
    module: broken.recoversWithTheSameView,
    property: "recover-overflow",
    shrinksSmall: false,
  },
  {
    flaw: "shrinks in its own tokens after an overflow and scales the shrink down again",
    module: shrinksInItsOwnTokens,
    property: "recover-overflow",
    reason: /holds the minimal view/,
    shrinksSmall: false,
  },
  { flaw: "under-reports its usage", module: broken.underReportsUsage, property: "usage" },
  { flaw: "ignores an aborted signal", module: broken.ignoresAbort, property: "abort" },
  { flaw: "obeys a budget that is not a count", module: broken.obeysAnyBudget, property: "budget-inputs" },
  { flaw: "trusts ctxkit markers in a caller's metadata", module: broken.trustsCallerMarkers, property: "caller-markers" },
  {
    flaw: "compacts restlessly, far below its budget",
    module: broken.compactsRestlessly,
    property: "compaction-frequency",
    // Seed 1 shrinks to three segments: a result slipped after a user message (its call, that message and its
    // result, generated together as one broken fragment, all three as small as they go) and two user messages.
    // Without any one of the three segments the module passes, so the fifth message is the fragment's.
    shrunkMessages: 5,
  },
  { flaw: "compacts at half its budget", module: seedSensitive.compactsAtHalfTheBudget, property: "compaction-frequency" },
  {
    flaw: "compacts just under 70% of its budget",
    module: seedSensitive.compactsJustUnderSeventyPercent,
    property: "compaction-frequency",
    shrinksSmall: false,
  },
  { flaw: "counts with a cheaper counter than it declares", module: broken.countsCheaply, property: "budget" },
  {
    flaw: "overshoots the budget on the first request after setMessages",
    module: broken.overshootsAfterResume,
    property: "resume",
    shrinksSmall: false,
  },
  {
    flaw: "overshoots an explicit tokenBudget by 3% on the first request after setMessages",
    module: seedSensitive.overshootsTokenBudgetAfterResume,
    property: "resume",
  },
  {
    flaw: "ignores a provider's output reservation on the first request after setMessages",
    module: seedSensitive.overshootsProviderBudgetAfterResume,
    property: "resume",
  },
  { flaw: "keeps hidden state through clear()", module: broken.keepsStateThroughClear, property: "clear" },
  { flaw: "keeps an overflow shrink through clear()", module: seedSensitive.keepsOverflowShrinkThroughClear, property: "clear" },
  { flaw: "mutates the messages given to setMessages", module: broken.mutatesSetMessagesInput, property: "non-destructive" },
  { flaw: "mutates the error given to recoverOverflow", module: broken.mutatesOverflowError, property: "non-destructive" },
  { flaw: "accepts a non-boolean pinned", module: broken.coercesPinned, property: "validation" },
  {
    flaw: "serves a request after adds called later",
    module: broken.servesRequestsLate,
    property: "concurrency",
    reason: /issued after the request/,
  },
  { flaw: "keeps the last few messages, splitting tool units", module: naiveKeepLast, property: "pairing" },
  { flaw: "marks a message its compaction dropped as kept in the receipt", module: liesInReceipts, property: "compaction-receipts" },
  { flaw: "serves its compacted view after an undo", module: servesCompactedViewAfterUndo, property: "undo-compaction" },
  { flaw: "compacts past the through it was given", module: compactsPastThrough, property: "partial-compaction" },
  { flaw: "splits the parallel calls of one response", module: seedSensitive.splitsParallelCalls, property: "unit-integrity" },
  { flaw: "trims the text of reasoning parts", module: seedSensitive.trimsReasoning, property: "reasoning-intact" },
  { flaw: "strips reasoning parts from older messages", module: seedSensitive.stripsReasoning, property: "reasoning-intact" },
  { flaw: "compacts on every request, with nothing new", module: seedSensitive.compactsOnEveryRequest, property: "compaction-progress" },
  {
    flaw: "ends a compaction above its target without saying why",
    module: seedSensitive.stopsShortOfTargetSilently,
    property: "compaction-progress",
    reason: /does not say why/,
    // Its smallest session found has one tool result long enough to pass the threshold alone.
    shrinksSmall: false,
  },
  {
    flaw: "offloads a tool result under a reference by call id alone, though ids repeat",
    module: seedSensitive.namesOnlyTheCallId,
    property: "offload-retrieval",
    shrinksSmall: false,
  },
  {
    flaw: "offloads a tool result under a reference to another result",
    module: seedSensitive.namesTheWrongOffloadedResult,
    property: "offload-retrieval",
    shrinksSmall: false,
  },
];

/** Broken modules whose runs all pass and check nothing: caught as "never exercised", with no counterexample. */
export const UNEXERCISING_CASES: readonly BrokenCase[] = [
  {
    flaw: "never compacts, refusing every view that would need it",
    module: neverCompacts,
    property: "compaction-progress",
    reason: /^never exercised: views with a compaction/,
  },
];

export const MANAGER_CASES: readonly BrokenCase[] = [...PLAIN_CASES, ...FEATURE_CASES, ...UNEXERCISING_CASES];

export const HEALTHY_MANAGER = contextSimple;
