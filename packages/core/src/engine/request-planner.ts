// Request planning: a request's budget (overflow shrink, calibration, overhead) and whether, and why, it compacts.
import type { CompactionReason } from "../events.js";
import type { Strategy } from "../pipeline/strategy.js";
import { ContextValidationError } from "../errors.js";
import type { CompactionDecisionRecord, ContextUsage, ProviderUsage, RequestOptions } from "../protocol.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { type CachePriceModel, resolveCachePriceModel } from "./cache-price-model.js";
import { type CompactionDecision, decideCompaction } from "./compaction-decision.js";
import type { ResolvedContextConfig } from "./context-config.js";
import { OverflowShrink } from "./overflow-shrink.js";
import { RequestOverhead } from "./request-overhead.js";
import { resolveRequestBudget } from "./resolve-request-budget.js";
import type { ViewTokens } from "./sticky-view.js";
import { type Calibration, UsageCalibration } from "./usage-calibration.js";

/** `probe`: decide as `auto` would, changing nothing that the next request depends on. */
export type CompactionMode = { kind: "auto" } | { kind: "force" } | { kind: "overflow" } | { kind: "probe" };

export interface RequestBudget {
  /** The budget resolved for the request (a window less its reserves, or `maxTokens`), in the provider's tokens. */
  readonly nominal: number;
  /** The nominal budget after an overflow shrink: what `usage()` reports. */
  readonly requestBudget: number;
  /** Tokens of the request's tools and reserve. */
  readonly overheadTokens: number;
  /** What the view may take: the request budget, calibrated to the manager's count, less the overhead. */
  readonly budget: number;
  /**
   * What the view may take without the overflow shrink: the most a compaction may raise `budget` to when
   * even the minimal view passes it, since a shrink never goes below a minimal view the window could hold.
   */
  readonly ceiling: number;
}

// A view compacted for a budget this much smaller than the current one is rebuilt from the history at the next compaction.
const REGROW_RATIO = 1.25;
// How much each request's growth moves the estimate the compaction decision uses: a few requests' worth of memory.
const GROWTH_WEIGHT = 0.2;

/** The provider's input token count from `usage`, or a `ContextValidationError` naming `inputTokens`. */
export function readInputTokens(usage: ProviderUsage): number {
  const inputTokens = usage?.inputTokens;
  if (typeof inputTokens !== "number" || !Number.isFinite(inputTokens) || inputTokens < 0) {
    throw new ContextValidationError([
      {
        path: "inputTokens",
        message: `must be the provider's input token count, a finite number ≥ 0; received ${String(inputTokens)}`,
      },
    ]);
  }
  return inputTokens;
}

/** Holds what one request's plan depends on from the ones before it. Touches neither the store nor the queue. */
export class RequestPlanner {
  private readonly overflow = new OverflowShrink();
  private readonly overhead: RequestOverhead;
  private readonly calibration = new UsageCalibration();
  /** The budget the current view was last compacted for; a much larger budget rebuilds it from the history. */
  private compactedFor: number | undefined;
  /** True when the last compaction could not get under the threshold: then only the budget triggers. */
  private floorAboveThreshold = false;
  private lastUsage: ContextUsage | undefined;
  /** When the last request was served (`Date.now()`), read only when `idleStrategies` is not empty. */
  private lastRequestAt: number | undefined;
  private readonly pricing: CachePriceModel;
  /** The view's growth per request, a moving average; undefined before two requests. */
  private growthPerRequest: number | undefined;
  /** When the last request was served, for the cache's lifetime. */
  private lastServedAt: number | undefined;
  /**
   * When the store says the session's newest message was added (`lastAddedAt`), before this manager served a
   * request: a resumed session's pause, which this process's own clock cannot have seen.
   */
  private storedActivityAt: number | undefined;
  /** The figures of the latest `reasonFor`: the request being built, whose compaction (or not) they decided. */
  private latest: { viewTokens: number; budget: number; decision: CompactionDecision | undefined } | undefined;
  /** Requests since the last compaction that the decision deferred, their view past the threshold. */
  private deferredRequests = 0;
  /** Requests served since the history was last replaced: how long the session has gone on. */
  private requestsServed = 0;

  constructor(
    private readonly config: ResolvedContextConfig,
    private readonly counter: TokenCounter,
    /** Strategies that also run after a pause (`idleAfterMs`); empty in the usual case, which then costs nothing. */
    private readonly idleStrategies: readonly Strategy[],
    /** The view's leading tokens no compaction changes (its instructions), which stay cached through one. */
    private readonly stablePrefixTokens: () => number = () => 0,
  ) {
    this.overhead = new RequestOverhead(counter);
    this.pricing = resolveCachePriceModel(config.cachePricing);
  }

  /** The budget of a request with `options`; an overflow shrinks it, and a probe changes nothing. */
  async budgetFor(options: RequestOptions, mode: CompactionMode): Promise<RequestBudget> {
    const nominal = await resolveRequestBudget(options, this.config);
    // Counted before anything steps, so bad tools reject the request with nothing changed.
    const overheadTokens = this.overhead.tokensOf(options);
    const requestBudget =
      mode.kind === "overflow"
        ? this.overflow.shrink(nominal, this.rejectedTokens())
        : mode.kind === "probe"
          ? this.overflow.peek(nominal)
          : this.overflow.apply(nominal);
    const budget = this.viewBudget(requestBudget, overheadTokens);
    return { nominal, requestBudget, overheadTokens, budget, ceiling: this.viewBudget(nominal, overheadTokens) };
  }

  /** Tokens of the request's tool definitions alone (`tools`), as they are taken off the budget. */
  toolTokensOf(options: RequestOptions): number {
    return options.tools === undefined ? 0 : this.overhead.tokensOf({ tools: options.tools });
  }

  /**
   * `plan` lifted so its budget holds `viewTokens`: a compaction found that even the minimal view passes the
   * shrunk budget, but fits the unshrunk one. Later requests at this budget start from the lifted shrink.
   */
  holdView(plan: RequestBudget, viewTokens: number): RequestBudget {
    if (viewTokens <= plan.budget) return plan;
    const providerTokens = Math.ceil((viewTokens + plan.overheadTokens) * this.calibration.scale);
    const requestBudget = this.overflow.holdAtLeast(plan.nominal, providerTokens);
    return { ...plan, requestBudget, budget: Math.max(viewTokens, this.viewBudget(requestBudget, plan.overheadTokens)) };
  }

  /** The view fits what is left beside the tools, in the manager's own tokens as calibrated on the provider's. */
  private viewBudget(requestBudget: number, overheadTokens: number): number {
    return Math.max(0, this.calibration.apply(requestBudget, this.config.maxTokens) - overheadTokens);
  }

  /**
   * The last request's size (its view and overhead) in the provider's tokens: what the provider rejected when
   * a recovery follows it. The shrink works in the provider's tokens, so the manager's count is scaled once
   * here, and the shrunk budget is calibrated back once in `viewBudget`.
   */
  private rejectedTokens(): number | undefined {
    if (this.lastUsage === undefined) return undefined;
    return Math.ceil((this.lastUsage.tokens + (this.lastUsage.overheadTokens ?? 0)) * this.calibration.scale);
  }

  /**
   * Why a view of `viewTokens` compacts for `budget`, or undefined when it is served as it is.
   * `exceedsLimit` says whether a strategy's limit on every view (a message window) was passed.
   * A view whose bound is far under the budget is not counted: any count under that bound gives the same answer.
   */
  reasonFor(
    mode: CompactionMode,
    view: number | ViewTokens,
    budget: number,
    exceedsLimit: () => boolean = () => false,
  ): CompactionReason | undefined {
    if (typeof view !== "number" && mode.kind === "auto" && this.isSurelyUnder(view.bound, budget)) {
      // The decision would be "none" on any count up to the bound; only the reasons that count no token are left.
      const reason = this.otherReason(mode, budget, exceedsLimit);
      if (reason === undefined) {
        this.latest = {
          get viewTokens() {
            return view.exact();
          },
          budget,
          decision: undefined,
        };
        return undefined;
      }
    }
    const viewTokens = typeof view === "number" ? view : view.exact();
    // Over its floor, the view cannot shrink to a target: only the budget triggers, and no rewrite is worth weighing.
    const decision = this.floorAboveThreshold ? undefined : this.decide(viewTokens, budget);
    this.latest = { viewTokens, budget, decision };
    if (mode.kind === "force") return "forced";
    if (mode.kind === "overflow") return "overflow";
    // Past the threshold the view compacts once the reads it saves repay the cache it rewrites, and always past the budget.
    if (decision === undefined ? viewTokens > budget : decision.shouldCompact) return "threshold";
    return this.otherReason(mode, budget, exceedsLimit);
  }

  /**
   * Whether a view of at most `bound` tokens is certainly served as it is at `budget` by the decision: under the
   * threshold, and under half of it, below which not even a pause past the cache's lifetime compacts.
   */
  private isSurelyUnder(bound: number, budget: number): boolean {
    const thresholdTokens = this.config.compactThreshold * budget;
    return bound <= budget && bound <= thresholdTokens && 2 * bound < thresholdTokens;
  }

  /** Under this bound a view of a request in `mode` at `budget` is decided without a count; 0 when none is. */
  deferralLimit(mode: CompactionMode, budget: number): number {
    return mode.kind === "auto" ? (this.config.compactThreshold * budget) / 2 : 0;
  }

  /** The reasons to compact besides the decision: a pause, a strategy's limit, a budget grown well past the last compaction's. */
  private otherReason(mode: CompactionMode, budget: number, exceedsLimit: () => boolean): CompactionReason | undefined {
    if (this.idleStrategies.length > 0 && mode.kind === "auto" && this.dueIdleStrategies().length > 0) return "idle";
    if (exceedsLimit()) return "limit";
    // A view compacted for a much smaller budget grows back from the history: the one prefix change a larger budget costs.
    if (this.compactedFor !== undefined && budget >= this.compactedFor * REGROW_RATIO) return "budget-change";
    return undefined;
  }

  /** The compaction decision for a view of `viewTokens` at `budget`, from the growth and pause seen so far. */
  private decide(viewTokens: number, budget: number): CompactionDecision {
    return decideCompaction({
      viewTokens,
      budget,
      thresholdTokens: this.config.compactThreshold * budget,
      floorTokens: Math.floor(this.config.targetRatio * budget),
      growthPerRequest: this.growthPerRequest,
      requestsServed: this.requestsServed,
      stablePrefixTokens: this.stablePrefixTokens(),
      idleMs: this.idleMs(),
      pricing: this.pricing,
    });
  }

  /** Since the last request served, or else since the store's newest message was added (never negative); undefined when unknown. */
  private idleMs(): number | undefined {
    const since = this.lastServedAt ?? this.storedActivityAt;
    return since === undefined ? undefined : Math.max(0, Date.now() - since);
  }

  /**
   * The store reported when the session's newest message was added (`lastAddedAt`); the latest such time
   * counts. A time at or after `ownWritesSince` (this manager's first write of the history) may be its own
   * append's, which says nothing of the pause before this process took the session up, so it is left out.
   */
  recordStoredActivity(addedAt: number | undefined, ownWritesSince: number | undefined): void {
    if (addedAt === undefined || !Number.isFinite(addedAt)) return;
    if (ownWritesSince !== undefined && addedAt >= ownWritesSince) return;
    this.storedActivityAt = this.storedActivityAt === undefined ? addedAt : Math.max(this.storedActivityAt, addedAt);
  }

  /**
   * The tokens a compaction for `budget` aims for: the decision's target for one it set off (a view past its
   * threshold, or below it when the rewrite pays), `targetRatio × budget` for any other.
   */
  targetFor(budget: number, reason: CompactionReason): number {
    const decision = this.latest?.decision;
    if (reason === "threshold" && decision !== undefined && this.latest!.budget === budget) return decision.target;
    return Math.floor(this.config.targetRatio * budget);
  }

  /** What the receipt of a compaction for `reason` records of the decision that set it off, if one did. */
  decisionRecord(reason: CompactionReason): CompactionDecisionRecord | undefined {
    const decision = this.latest?.decision;
    if (reason !== "threshold" || decision === undefined || decision.trigger === "none") return undefined;
    return {
      trigger: decision.trigger,
      target: decision.target,
      expectedSaving: Math.round(decision.expectedSaving),
      rewriteCost: Math.round(decision.rewriteCost),
      requestsAhead: Math.round(decision.requestsAhead * 10) / 10,
      growthPerRequest: Math.round(decision.growthPerRequest),
      isCacheExpired: decision.isCacheExpired,
      deferredRequests: this.deferredRequests,
    };
  }

  /** The strategies whose pause has passed since the last request; none before the first request. */
  dueIdleStrategies(): Strategy[] {
    if (this.lastRequestAt === undefined) return [];
    const idleFor = Date.now() - this.lastRequestAt;
    return this.idleStrategies.filter((strategy) => idleFor >= strategy.idleAfterMs!);
  }

  /** A compaction for `budget` ended at `viewTokens`; a view over the budget keeps its decisions and then only the budget triggers. */
  recordCompaction(budget: number, viewTokens: number): void {
    this.compactedFor = budget;
    this.floorAboveThreshold = viewTokens > budget || viewTokens > this.config.compactThreshold * budget;
  }

  /** A request was served with a view of `view` messages and tokens. */
  recordRequest(plan: RequestBudget, view: { tokens: number | ViewTokens; messageCount: number }, compacted: boolean): void {
    const now = Date.now();
    if (this.idleStrategies.length > 0) this.lastRequestAt = now;
    // An empty view (the request right after clear(), say) caches nothing and says nothing of the session's
    // pace: counting it would make the next decisions differ from a fresh instance's.
    if (view.messageCount > 0) {
      this.recordGrowth(compacted);
      this.requestsServed += 1;
      this.lastServedAt = now;
    } else this.latest = undefined;
    const { tokens } = view;
    this.lastUsage = {
      // Counted when a figure is asked for (`usage()`, a calibration, an overflow shrink, the next request's growth).
      get tokens() {
        return typeof tokens === "number" ? tokens : tokens.exact();
      },
      budget: plan.requestBudget,
      overheadTokens: plan.overheadTokens,
      messageCount: view.messageCount,
      compacted: compacted || this.lastUsage?.compacted === true,
      counter: this.counter.name,
    };
  }

  /** The view grew from the last request's to what this request found before any compaction. */
  private recordGrowth(compacted: boolean): void {
    const latest = this.latest;
    const previous = this.lastUsage !== undefined && this.lastUsage.messageCount > 0 ? this.lastUsage.tokens : undefined;
    // A request with nothing new says nothing about how fast the session grows.
    if (latest !== undefined && previous !== undefined && latest.viewTokens > previous) {
      const growth = latest.viewTokens - previous;
      this.growthPerRequest =
        this.growthPerRequest === undefined ? growth : this.growthPerRequest + GROWTH_WEIGHT * (growth - this.growthPerRequest);
    }
    if (compacted) this.deferredRequests = 0;
    else if (latest?.decision !== undefined && latest.viewTokens > this.config.compactThreshold * latest.budget) this.deferredRequests += 1;
    this.latest = undefined;
  }

  /** Takes the provider's count for the last view; returns the calibration when it moved far enough to announce. */
  recordProviderCount(inputTokens: number): Calibration | undefined {
    if (this.lastUsage === undefined) return undefined;
    return this.calibration.record(inputTokens, this.lastUsage.tokens + (this.lastUsage.overheadTokens ?? 0));
  }

  /** The figures of the last request, a copy. */
  usage(): ContextUsage | undefined {
    return this.lastUsage === undefined ? undefined : { ...this.lastUsage };
  }

  /** Forgets everything tied to the history; the calibration, a property of the provider, stays. */
  reset(): void {
    this.compactedFor = undefined;
    this.floorAboveThreshold = false;
    this.lastUsage = undefined;
    this.growthPerRequest = undefined;
    this.lastServedAt = undefined;
    this.storedActivityAt = undefined;
    this.latest = undefined;
    this.deferredRequests = 0;
    this.requestsServed = 0;
    this.overflow.reset();
  }
}
