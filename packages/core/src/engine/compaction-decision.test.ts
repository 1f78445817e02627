import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CACHE_PRICE_MODELS } from "./cache-price-model.js";
import { chooseTarget, type CompactionFigures, decideCompaction, ROOM_FOR_REQUESTS } from "./compaction-decision.js";

/** A 24k budget, threshold 0.7, floor 0.2, a view growing by 1,000 tokens a request, 20 requests served, Anthropic prices. */
const base: CompactionFigures = {
  viewTokens: 17_000,
  budget: 24_000,
  thresholdTokens: 16_800,
  floorTokens: 4_800,
  growthPerRequest: 1_000,
  requestsServed: 20,
  stablePrefixTokens: 0,
  idleMs: 1_000,
  pricing: CACHE_PRICE_MODELS.anthropic,
};

const figuresArbitrary = fc
  .record({
    budget: fc.integer({ min: 1_000, max: 400_000 }),
    thresholdShare: fc.double({ min: 0.05, max: 1, noNaN: true }),
    floorShare: fc.double({ min: 0.01, max: 1, noNaN: true }),
    viewShare: fc.double({ min: 0, max: 2, noNaN: true }),
    growthPerRequest: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
    requestsServed: fc.integer({ min: 0, max: 2_000 }),
    stablePrefixTokens: fc.integer({ min: 0, max: 20_000 }),
    idleMs: fc.option(fc.integer({ min: 0, max: 3_600_000 }), { nil: undefined }),
    pricing: fc.oneof(
      fc.constantFrom(CACHE_PRICE_MODELS.anthropic, CACHE_PRICE_MODELS.openai),
      fc
        .record({ read: fc.double({ min: 0, max: 0.9, noNaN: true }), write: fc.double({ min: 1, max: 3, noNaN: true }) })
        .map((prices) => ({ ...prices, ttlMs: 300_000 })),
    ),
  })
  .map(({ budget, thresholdShare, floorShare, viewShare, ...rest }): CompactionFigures => {
    const thresholdTokens = Math.floor(thresholdShare * budget);
    return {
      ...rest,
      budget,
      thresholdTokens,
      floorTokens: Math.min(thresholdTokens, Math.floor(floorShare * budget)),
      viewTokens: Math.floor(viewShare * budget),
    };
  });

describe("decideCompaction", () => {
  describe("over the budget", () => {
    it("should compact a view over the budget, whatever the rewrite costs and however young the session", () => {
      const decision = decideCompaction({ ...base, viewTokens: 25_000, growthPerRequest: undefined, requestsServed: 0 });
      expect(decision).toMatchObject({ shouldCompact: true, trigger: "budget" });
    });

    it("should never defer a view over its budget (property)", () => {
      fc.assert(
        fc.property(figuresArbitrary, (figures) => {
          if (figures.viewTokens > figures.budget)
            expect(decideCompaction(figures)).toMatchObject({ shouldCompact: true, trigger: "budget" });
        }),
      );
    });
  });

  describe("under the threshold", () => {
    it("should serve the view as it is while the cache lives, however much a compaction would save", () => {
      expect(decideCompaction({ ...base, viewTokens: 16_800 })).toMatchObject({ shouldCompact: false, trigger: "none" });
    });

    it("should never compact under the threshold but after a pause that outlived the cache (property)", () => {
      fc.assert(
        fc.property(figuresArbitrary, (figures) => {
          const decision = decideCompaction(figures);
          if (figures.viewTokens <= figures.thresholdTokens && decision.shouldCompact) {
            expect(decision.trigger).toBe("cache-expired");
            expect(decision.isCacheExpired).toBe(true);
          }
        }),
      );
    });
  });

  describe("past the threshold: the reads saved against the rewrite risked", () => {
    it("should compact a session with a track record: the rewrite is wasted only if it ends within the next 7 requests", () => {
      // 7 requests until the budget forces it; served 20 (+8 credited): ahead 28·ln(1 + 7/28) ≈ 6.25, chance it ends first 7/35.
      const decision = decideCompaction(base);
      expect(decision).toMatchObject({ shouldCompact: true, trigger: "saving", target: 4_800 });
      expect(decision.requestsAhead).toBeCloseTo(28 * Math.log1p(7 / 28));
      expect(decision.expectedSaving).toBeCloseTo(0.1 * 12_200 * decision.requestsAhead);
      expect(decision.rewriteCost).toBeCloseTo(1.15 * 4_800 * (7 / 35));
    });

    it("should defer in a young session the budget leaves long to run: the compaction may never be needed", () => {
      // A view growing by 10 tokens a request has 700 requests to go; a session of one request likely ends before.
      const decision = decideCompaction({ ...base, growthPerRequest: 10, requestsServed: 0, floorTokens: 16_000, thresholdTokens: 16_800 });
      expect(decision).toMatchObject({ shouldCompact: false, trigger: "none" });
      expect(decision.rewriteCost).toBeGreaterThan(decision.expectedSaving);
    });

    it("should not count the instructions opening the view in the rewrite: they stay cached", () => {
      const withInstructions = decideCompaction({ ...base, stablePrefixTokens: 2_000 });
      expect(withInstructions.rewriteCost).toBeCloseTo(1.15 * 2_800 * (7 / 35));
    });

    it("should risk less without a write premium (OpenAI) than with one (Anthropic)", () => {
      const anthropic = decideCompaction({ ...base, pricing: CACHE_PRICE_MODELS.anthropic });
      const openai = decideCompaction({ ...base, pricing: CACHE_PRICE_MODELS.openai });
      expect(openai.rewriteCost).toBeLessThan(anthropic.rewriteCost);
    });

    it("should compact a larger view whenever it compacts a smaller one past the threshold, the rest the same (property)", () => {
      fc.assert(
        fc.property(figuresArbitrary, fc.integer({ min: 0, max: 100_000 }), (figures, more) => {
          const decision = decideCompaction(figures);
          if (!decision.shouldCompact || decision.trigger === "cache-expired") return;
          expect(decideCompaction({ ...figures, viewTokens: figures.viewTokens + more }).shouldCompact).toBe(true);
        }),
      );
    });

    it("should compact past the threshold only when the saving repays the rewrite risked (property)", () => {
      fc.assert(
        fc.property(figuresArbitrary, (figures) => {
          const decision = decideCompaction(figures);
          if (decision.trigger === "saving") expect(decision.expectedSaving).toBeGreaterThanOrEqual(decision.rewriteCost);
          if (decision.trigger === "cache-expired") expect(decision.rewriteCost).toBe(0);
          expect(decision.trigger === "none").toBe(!decision.shouldCompact);
        }),
      );
    });
  });

  describe("after a pause longer than the cache lives", () => {
    it("should compact a view halfway to its threshold: the next request writes it all anyway", () => {
      const decision = decideCompaction({ ...base, viewTokens: 11_000, idleMs: 6 * 60_000 });
      expect(decision).toMatchObject({ shouldCompact: true, trigger: "cache-expired", rewriteCost: 0, isCacheExpired: true });
    });

    it("should leave a view still near its target: a rewrite for a few tokens is churn", () => {
      expect(decideCompaction({ ...base, viewTokens: 6_000, idleMs: 6 * 60_000 })).toMatchObject({ shouldCompact: false });
    });

    it("should not count a pause within the cache's lifetime, or an unknown one", () => {
      expect(decideCompaction({ ...base, viewTokens: 11_000, idleMs: 4 * 60_000 })).toMatchObject({
        shouldCompact: false,
        isCacheExpired: false,
      });
      expect(decideCompaction({ ...base, viewTokens: 11_000, idleMs: undefined })).toMatchObject({
        shouldCompact: false,
        isCacheExpired: false,
      });
    });
  });
});

describe("chooseTarget", () => {
  it("should be the floor while the growth is unknown or fast", () => {
    expect(chooseTarget({ ...base, growthPerRequest: undefined })).toBe(4_800);
    expect(chooseTarget({ ...base, growthPerRequest: 1_000 })).toBe(4_800);
  });

  it(`should leave room for ${ROOM_FOR_REQUESTS} requests of a slow growth below the threshold`, () => {
    const budget = { thresholdTokens: 51_200, floorTokens: 16_000 };
    expect(chooseTarget({ ...budget, growthPerRequest: 300 })).toBe(51_200 - ROOM_FOR_REQUESTS * 300);
  });

  it("should never aim above half the threshold: a compaction must free enough to pay for itself", () => {
    expect(chooseTarget({ thresholdTokens: 51_200, floorTokens: 16_000, growthPerRequest: 1 })).toBe(25_600);
  });

  it("should stay between the floor and the threshold (property)", () => {
    fc.assert(
      fc.property(figuresArbitrary, (figures) => {
        const target = chooseTarget(figures);
        expect(target).toBeGreaterThanOrEqual(figures.floorTokens);
        expect(target).toBeLessThanOrEqual(Math.max(figures.floorTokens, figures.thresholdTokens));
      }),
    );
  });
});
