// Whether a view past its threshold compacts now, and to what target: a rewrite of the cached prefix against the reads it saves.
//
// Under prompt caching a compaction is a purchase: the view it leaves is written to the cache again, at the
// write price, instead of being read at the read price; from then on every request reads fewer tokens. Past
// the threshold a compaction is coming anyway, at the latest when the view reaches the budget, so making it
// now wastes its rewrite only if the session ends before then. Compacting now saves the excess's reads on every
// request until that point or the session's end; it costs the rewrite times the chance that the session ends
// first. With nothing but the requests served so far to go on, that chance is the Lindy estimate: a session
// that has made n requests is as likely to end within m more as n / (n + m) says. So a young session (a resumed
// history asked once, say) defers; a session with a track record compacts at the threshold.
// A pause longer than the cache's lifetime makes a rewrite free, since the next request writes the whole view
// anyway: a view halfway to its threshold is compacted then, rather than a few requests later at full price.
import { isInstruction } from "../messages/message.js";
import type { ViewEntry } from "../pipeline/strategy.js";
import type { CachePriceModel } from "./cache-price-model.js";

/** What set a compaction off, or `none` when the view is served as it is. */
export type CompactionTrigger = "budget" | "saving" | "cache-expired" | "none";

export interface CompactionFigures {
  /** The view's tokens as it stands, the new messages included. */
  readonly viewTokens: number;
  readonly budget: number;
  /** Under this many tokens the view is served as it is (`compactThreshold × budget`), but after a pause. */
  readonly thresholdTokens: number;
  /** The deepest target: `targetRatio × budget`. */
  readonly floorTokens: number;
  /** The view's growth per request (a moving average), or undefined before two requests. */
  readonly growthPerRequest: number | undefined;
  /** Requests this manager has served on the session so far. */
  readonly requestsServed: number;
  /** The leading tokens no compaction changes (the system and developer messages opening the view): they stay cached. */
  readonly stablePrefixTokens: number;
  /** Milliseconds since the previous request, or undefined when unknown (the first request, a resumed session). */
  readonly idleMs: number | undefined;
  readonly pricing: CachePriceModel;
}

/** The decision and the figures it was made on; costs are in base-price input tokens. */
export interface CompactionDecision {
  readonly shouldCompact: boolean;
  readonly trigger: CompactionTrigger;
  /** The tokens a compaction made now aims for. */
  readonly target: number;
  /** The reads of the excess over the target that compacting now saves over the requests ahead. */
  readonly expectedSaving: number;
  /** The rewrite compacting now wastes, expected: its cost times the chance the session ends before the budget would force it. */
  readonly rewriteCost: number;
  /** The requests the saving is expected over: until the budget forces a compaction, or the session ends. */
  readonly requestsAhead: number;
  readonly growthPerRequest: number;
  /** Whether the pause since the previous request outlived the provider's cache. */
  readonly isCacheExpired: boolean;
}

/**
 * Requests a session is credited with before its first: an agent session that has reached its threshold
 * usually has many calls to go, and a compaction deferred for want of a track record costs reads on each.
 */
export const SESSION_PRIOR_REQUESTS = 8;

/**
 * The target leaves room below the threshold for this many requests of the observed growth. Only a slow
 * session (under 1/96 of the threshold a request) gets a target above the floor: one a compaction to the
 * floor would empty for a hundred calls, while the budget could hold what it threw away.
 */
export const ROOM_FOR_REQUESTS = 96;

/**
 * The tokens a compaction made now aims for: room below the threshold for `ROOM_FOR_REQUESTS` requests at
 * the observed growth, never below the floor, and never above half the threshold, so a compaction still
 * frees enough to be worth its rewrite.
 */
export function chooseTarget(figures: Pick<CompactionFigures, "thresholdTokens" | "floorTokens" | "growthPerRequest">): number {
  const { thresholdTokens, floorTokens, growthPerRequest } = figures;
  if (growthPerRequest === undefined || !(growthPerRequest > 0)) return floorTokens;
  const roomy = Math.floor(thresholdTokens - ROOM_FOR_REQUESTS * growthPerRequest);
  return Math.max(floorTokens, Math.min(roomy, Math.floor(thresholdTokens / 2)));
}

/** Whether to compact now, and to what. A view over its budget always compacts; one under its threshold, only after the cache expired. */
export function decideCompaction(figures: CompactionFigures): CompactionDecision {
  const { viewTokens, budget, thresholdTokens, pricing } = figures;
  const target = chooseTarget(figures);
  const growthPerRequest = Math.max(0, figures.growthPerRequest ?? 0);
  const isCacheExpired = figures.idleMs !== undefined && figures.idleMs > pricing.ttlMs;
  const excess = Math.max(0, viewTokens - target);
  const served = figures.requestsServed + SESSION_PRIOR_REQUESTS;
  // Requests until the budget forces the compaction anyway; with no growth seen yet, as many as so far.
  const untilForced = growthPerRequest > 0 ? Math.max(0, budget - viewTokens) / growthPerRequest : served;
  // Expected requests before the budget or the session's end: Σ n / (n + k) for k = 1…m, about n·ln(1 + m / n).
  const requestsAhead = served * Math.log1p(untilForced / served);
  const chanceEndsFirst = untilForced / (served + untilForced);
  // What changes is rewritten; the instructions at the head stay cached through the compaction.
  const rewritten = Math.max(0, target - figures.stablePrefixTokens);
  const fullRewrite = isCacheExpired ? 0 : Math.max(0, pricing.write - pricing.read) * rewritten;
  const rewriteCost = fullRewrite * chanceEndsFirst;
  const expectedSaving = pricing.read * excess * requestsAhead;
  const decided = (shouldCompact: boolean, trigger: CompactionTrigger): CompactionDecision => ({
    shouldCompact,
    trigger,
    target,
    expectedSaving,
    rewriteCost,
    requestsAhead,
    growthPerRequest,
    isCacheExpired,
  });
  if (viewTokens > budget) return decided(true, "budget");
  // A free rewrite, for a view at least halfway to its threshold: one due soon is made now, while it costs nothing.
  if (isCacheExpired && excess > 0 && viewTokens >= (target + thresholdTokens) / 2) return decided(true, "cache-expired");
  // Hysteresis: under the threshold the view is served as it is, its prefix cached.
  if (viewTokens <= thresholdTokens) return decided(false, "none");
  if (excess > 0 && expectedSaving >= rewriteCost) return decided(true, "saving");
  return decided(false, "none");
}

/** Tokens of the system and developer messages that open a view: no compaction changes them, so they stay cached. */
export function leadingInstructionTokens(entries: Iterable<ViewEntry>): number {
  let tokens = 0;
  for (const entry of entries) {
    if (!isInstruction(entry.message)) break;
    tokens += entry.tokens;
  }
  return tokens;
}
