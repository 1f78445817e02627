import type { ContextEventMap } from "../index.js";
import { estimateCounter } from "../tokens/estimate-counter.js";
import { contextConfigSchema } from "./context-config.js";
import { RequestPlanner } from "./request-planner.js";
import { describe, expect, it } from "vitest";
import { assistantMessage, sampleTurn, systemMessage, userMessage } from "../testing/index.js";
import { addAll, managerWithEvents } from "../../test/memory-context.js";

describe("request planning", () => {
  describe("hysteresis", () => {
    it("should not compact below the threshold, and compact down to the target above it", async () => {
      const { manager, events, count } = await managerWithEvents({ maxTokens: 10_000 });
      await addAll(manager, sampleTurn(1, 4_000));
      await manager.getMessagesForRequest();
      expect(count("context:pre_compact")).toBe(0);
      await addAll(manager, [...sampleTurn(2, 20_000), ...sampleTurn(3, 20_000)]);
      await manager.getMessagesForRequest();
      const post = events.find((recorded) => recorded.event === "context:post_compact");
      expect(post?.payload).toMatchObject({ budget: 10_000 });
      expect((post?.payload as ContextEventMap["context:post_compact"]).tokenCount).toBeLessThanOrEqual(6_000);
    });

    it("should extend the previous view between compactions, byte for byte", async () => {
      const { manager, count } = await managerWithEvents({ maxTokens: 8_000 });
      await addAll(manager, Array.from({ length: 20 }, (_, index) => sampleTurn(index, 2_000)).flat());
      const compactedView = await manager.getMessagesForRequest();
      expect(count("context:post_compact")).toBe(1);
      await addAll(manager, sampleTurn(99, 50));
      const next = await manager.getMessagesForRequest();
      expect(count("context:post_compact")).toBe(1);
      expect(next.slice(0, compactedView.length)).toEqual(compactedView);
      expect(JSON.stringify(next.slice(0, compactedView.length))).toBe(JSON.stringify(compactedView));
    });

    it("should not compact on every request when an irreducible system prompt sits near the budget (regression)", async () => {
      const { manager, count } = await managerWithEvents({ maxTokens: 10_000 });
      await manager.addMessage(systemMessage("policy ".repeat(5_000)));
      let requests = 0;
      for (let index = 0; index < 60; index += 1) {
        await addAll(manager, [userMessage(`q${index}`), assistantMessage(`a${index} `.repeat(20))]);
        await manager.getMessagesForRequest();
        requests += 1;
      }
      expect(requests).toBe(60);
      expect(count("context:pre_compact")).toBeLessThanOrEqual(10);
    });

    it("should forget its decisions on clear() and setMessages()", async () => {
      const { manager, count } = await managerWithEvents({ maxTokens: 4_000 });
      const long = Array.from({ length: 10 }, (_, index) => sampleTurn(index, 2_000)).flat();
      await addAll(manager, long);
      await manager.getMessagesForRequest();
      await manager.setMessages(sampleTurn(1, 100));
      expect(await manager.getMessagesForRequest()).toEqual(sampleTurn(1, 100));
      await manager.clear();
      expect(await manager.getMessagesForRequest()).toEqual([]);
      expect(count("context:post_compact")).toBe(1);
    });
  });
});

describe("RequestPlanner", () => {
  const config = contextConfigSchema.parse({ tokenizer: "estimate" });
  const plannerFor = () => new RequestPlanner(config, estimateCounter(), []);

  it("should take the request's budget less its reserve", async () => {
    const plan = await plannerFor().budgetFor({ tokenBudget: 1_000, reserveTokens: 100 }, { kind: "auto" });
    expect(plan).toEqual({ nominal: 1_000, requestBudget: 1_000, overheadTokens: 100, budget: 900, ceiling: 900 });
  });

  it("should shrink the budget after an overflow, and leave it shrunk for a probe without relaxing it", async () => {
    const planner = plannerFor();
    planner.recordRequest(
      { nominal: 1_000, requestBudget: 1_000, overheadTokens: 0, budget: 1_000, ceiling: 1_000 },
      { tokens: 800, messageCount: 4 },
      false,
    );
    const shrunk = await planner.budgetFor({ tokenBudget: 1_000 }, { kind: "overflow" });
    expect(shrunk.requestBudget).toBe(600);
    expect((await planner.budgetFor({ tokenBudget: 1_000 }, { kind: "probe" })).requestBudget).toBe(600);
    expect((await planner.budgetFor({ tokenBudget: 1_000 }, { kind: "probe" })).requestBudget).toBe(600);
    // A request that did not overflow relaxes the shrink a step.
    expect((await planner.budgetFor({ tokenBudget: 1_000 }, { kind: "auto" })).requestBudget).toBeGreaterThan(600);
  });

  it("should aim the next attempt at 75% of the rejected size in the provider's tokens, calibrated once (regression)", async () => {
    const planner = plannerFor();
    const options = { tokenBudget: 8_192, reserveTokens: 100 };
    // The provider counts twice what the manager counts, and the manager has learned it.
    for (let report = 0; report < 12; report += 1) {
      const plan = await planner.budgetFor(options, { kind: "auto" });
      planner.recordRequest(plan, { tokens: plan.budget, messageCount: 10 }, false);
      planner.recordProviderCount((plan.budget + plan.overheadTokens) * 2);
    }
    const rejected = planner.usage()!;
    const rejectedProviderTokens = (rejected.tokens + rejected.overheadTokens!) * 2;
    const shrunk = await planner.budgetFor(options, { kind: "overflow" });
    // Not 75% of the manager's own count, then calibrated a second time (about 36% of what was rejected).
    expect(shrunk.requestBudget).toBeGreaterThanOrEqual(Math.floor(0.74 * rejectedProviderTokens));
    expect(shrunk.requestBudget).toBeLessThanOrEqual(Math.ceil(0.75 * rejectedProviderTokens));
    expect((shrunk.budget + shrunk.overheadTokens) * 2).toBeGreaterThanOrEqual(0.74 * rejectedProviderTokens);
    // The unshrunk budget stays within reach for a minimal view that needs it.
    expect(shrunk.ceiling).toBeGreaterThan(shrunk.budget);
  });

  it("should lift a shrink below the minimal view to hold it, and start later requests from there", async () => {
    const planner = plannerFor();
    planner.recordRequest(
      { nominal: 1_000, requestBudget: 1_000, overheadTokens: 0, budget: 1_000, ceiling: 1_000 },
      { tokens: 800, messageCount: 4 },
      false,
    );
    const shrunk = await planner.budgetFor({ tokenBudget: 1_000 }, { kind: "overflow" });
    expect(shrunk.budget).toBe(600);
    const held = planner.holdView(shrunk, 700);
    expect(held).toMatchObject({ requestBudget: 700, budget: 700 });
    expect((await planner.budgetFor({ tokenBudget: 1_000 }, { kind: "probe" })).budget).toBe(700);
    expect(planner.holdView(shrunk, 500)).toBe(shrunk);
  });

  it("should hold the whole view when the lifted shrink rounds just below it (regression)", async () => {
    const planner = plannerFor();
    planner.recordRequest(
      { nominal: 135, requestBudget: 135, overheadTokens: 0, budget: 135, ceiling: 135 },
      { tokens: 100, messageCount: 4 },
      false,
    );
    const shrunk = await planner.budgetFor({ tokenBudget: 135 }, { kind: "overflow" });
    // 135 × (78 / 135) is 77.99999999999999 in floating point.
    expect(planner.holdView(shrunk, 78)).toMatchObject({ requestBudget: 78, budget: 78 });
  });

  it("should compact above the threshold, and after a refusal only above the budget", () => {
    const planner = plannerFor();
    // The default threshold is 0.7 of the budget; past it, a new session's compaction repays its rewrite.
    expect(planner.reasonFor({ kind: "auto" }, 700, 1_000)).toBeUndefined();
    expect(planner.reasonFor({ kind: "auto" }, 701, 1_000)).toBe("threshold");
    expect(planner.reasonFor({ kind: "force" }, 0, 1_000)).toBe("forced");
    expect(planner.reasonFor({ kind: "overflow" }, 0, 1_000)).toBe("overflow");
    planner.recordCompaction(1_000, 950);
    expect(planner.reasonFor({ kind: "auto" }, 950, 1_000)).toBeUndefined();
    expect(planner.reasonFor({ kind: "auto" }, 1_001, 1_000)).toBe("threshold");
  });

  it("should grow the view back for a budget at least a quarter larger than the one it was compacted for", () => {
    const planner = plannerFor();
    planner.recordCompaction(1_000, 500);
    expect(planner.reasonFor({ kind: "auto" }, 500, 1_249)).toBeUndefined();
    expect(planner.reasonFor({ kind: "auto" }, 500, 1_250)).toBe("budget-change");
    planner.reset();
    expect(planner.reasonFor({ kind: "auto" }, 500, 2_000)).toBeUndefined();
  });

  it("should report usage as a copy, forget it on reset, and calibrate only after a request", () => {
    const planner = plannerFor();
    expect(planner.recordProviderCount(2_000)).toBeUndefined();
    planner.recordRequest(
      { nominal: 1_000, requestBudget: 1_000, overheadTokens: 10, budget: 990, ceiling: 990 },
      { tokens: 500, messageCount: 3 },
      true,
    );
    const usage = planner.usage()!;
    expect(usage).toMatchObject({ tokens: 500, budget: 1_000, overheadTokens: 10, messageCount: 3, compacted: true });
    usage.tokens = 0;
    expect(planner.usage()?.tokens).toBe(500);
    expect(planner.recordProviderCount(1_020)?.scale).toBeGreaterThan(1);
    planner.reset();
    expect(planner.usage()).toBeUndefined();
  });
});
