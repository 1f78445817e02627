import { fileURLToPath } from "node:url";
import { ContextConfigError, createCoordinator, mountPlan, type Provider } from "@ctxkit/core";
import { loadModule } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { turn } from "../test/messages.js";
import { createFreshView, createTestContext, freezeHistory } from "../test/strategy-context.js";
import * as summaryModule from "./index.js";
import type { CompletionRequest } from "./provider-summarizer.js";

const entry = fileURLToPath(new URL("./index.ts", import.meta.url));
const history = freezeHistory(Array.from({ length: 6 }, (_, index) => turn(index, 2)).flat());
const tuning = { keepRecentTokens: 300, minNewTokens: 1, maxSummaryTokens: 40 };

function completionProvider(reply: string) {
  const requests: CompletionRequest[] = [];
  const provider: Provider & { complete(request: CompletionRequest): Promise<string> } = {
    name: "llm",
    getInfo: () => ({ defaults: {} }),
    complete: async (request) => (requests.push(request), reply),
  };
  return { provider, requests };
}

describe("the strategy module", () => {
  describe("shape", () => {
    it("should load as a strategy module", async () => {
      const loaded = await loadModule(entry, { type: "strategy" });
      expect(loaded.meta).toEqual({ type: "strategy", name: "strategy-summary" });
    });

    it("should reject unknown keys and a model without a provider in one ContextConfigError", () => {
      const coordinator = createCoordinator();
      const attempt = () => summaryModule.createStrategy({ keepRecent: 5, model: "gpt" } as never, coordinator);
      expect(attempt).toThrow(ContextConfigError);
      expect(attempt).toThrow(/keepRecent[\s\S]*model|model[\s\S]*keepRecent/);
    });
  });

  describe("createStrategy", () => {
    it("should summarize with the extractive summarizer when no provider is named", async () => {
      const strategy = summaryModule.createStrategy(tuning, createCoordinator());
      const { view, applied } = await strategy.apply(createFreshView(history), createTestContext({ history }));
      expect(strategy.name).toBe("summary");
      expect(applied).toBe(true);
      expect(view.entries[0]!.message.content).toContain("User requests, oldest first:");
    });

    it("should summarize with the named provider's complete(), passing the model", async () => {
      const coordinator = createCoordinator();
      const { provider, requests } = completionProvider("They refactored the parser.");
      await coordinator.mount("providers", provider, { name: "llm" });
      const strategy = summaryModule.createStrategy({ ...tuning, provider: "llm", model: "small-model" }, coordinator);
      const { view } = await strategy.apply(createFreshView(history), createTestContext({ history }));
      expect(view.entries[0]!.message.content).toContain("They refactored the parser.");
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ model: "small-model", maxTokens: 40 });
      expect(requests[0]!.messages.map((message) => message.role)).toEqual(["system", "user"]);
    });

    it("should refuse a mounted provider that cannot complete", async () => {
      const coordinator = createCoordinator();
      await coordinator.mount("providers", { name: "llm", getInfo: () => ({ defaults: {} }) }, { name: "llm" });
      expect(() => summaryModule.createStrategy({ provider: "llm" }, coordinator)).toThrow(/no complete\(\) method/);
    });

    it("should report a provider that is still missing when it summarizes, and leave the draft for the next strategy", async () => {
      const strategy = summaryModule.createStrategy({ ...tuning, provider: "later" }, createCoordinator());
      const view = createFreshView(history);
      const context = createTestContext({ history });
      expect(await strategy.apply(view, context)).toEqual({ view, applied: false });
      expect(String((context.events[0]?.payload as { error: unknown }).error)).toMatch(/provider "later"/);
    });
  });

  describe("mount", () => {
    it("should announce the events it emits, and withdraw them on cleanup", async () => {
      const coordinator = createCoordinator();
      const cleanup = summaryModule.mount(coordinator, {});
      expect(await coordinator.collectContributions("observability.events")).toEqual([["context:strategy_error"]]);
      cleanup();
      expect(await coordinator.collectContributions("observability.events")).toEqual([]);
    });

    it("should reject a bad config when mounted", () => {
      expect(() => summaryModule.mount(createCoordinator(), { cooldownRequests: -1 })).toThrow(ContextConfigError);
    });

    it("should run as a { module, config } strategy entry of a mount plan", async () => {
      const coordinator = createCoordinator();
      const contextSimple = fileURLToPath(new URL("../../context-simple/src/index.ts", import.meta.url));
      const manager = await mountPlan(coordinator, {
        context: {
          module: contextSimple,
          config: {
            maxTokens: 2_000,
            tokenizer: "estimate",
            strategies: ["clear-tool-results", { module: entry, config: tuning }, "truncate"],
          },
        },
      });
      for (const message of Array.from({ length: 10 }, (_, index) => turn(index, 2)).flat()) await manager.addMessage(message);
      const view = await manager.getMessagesForRequest();
      expect(view.some((message) => message.metadata?.ctxkit?.source === "summary")).toBe(true);
    });
  });
});
