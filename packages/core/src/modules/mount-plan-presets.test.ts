import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createCoordinator } from "../coordinator/create-coordinator.js";
import { ContextConfigError, ModuleLoadError } from "../errors.js";
import { mountPlan } from "./mount-plan.js";

const fixtures = fileURLToPath(new URL("../../test/__fixtures__/modules/", import.meta.url));
const summaryModule = "./summary-strategy-module.js";

interface FixtureManager {
  config: { preset?: string; strategies?: unknown[]; summaryStrategy?: { name: string; config: { provider?: string } } };
}

const completingProvider = { name: "writer", getInfo: () => ({ defaults: {} }), complete: async () => "summary" };
const plainProvider = { name: "plain", getInfo: () => ({ defaults: {} }) };

async function mountWithPreset(
  preset: "auto" | "truncate" | "summarize",
  providers: Array<[string, object]>,
  options: { summaryModule?: string } = { summaryModule },
) {
  const coordinator = createCoordinator();
  for (const [name, provider] of providers) await coordinator.mount("providers", provider as never, { name });
  const manager = await mountPlan(
    coordinator,
    { context: { module: "./context-module.js", config: { preset } } },
    { cwd: fixtures, ...options },
  );
  return (manager as unknown as FixtureManager).config;
}

describe("mountPlan presets", () => {
  describe("auto", () => {
    it("should add the summary strategy with the first provider that can complete", async () => {
      const config = await mountWithPreset("auto", [
        ["plain", plainProvider],
        ["writer", completingProvider],
      ]);
      expect(config.summaryStrategy).toMatchObject({ name: "summary", config: { provider: "writer" } });
    });

    it("should leave the summary out when no provider can complete", async () => {
      const config = await mountWithPreset("auto", [["plain", plainProvider]]);
      expect(config.summaryStrategy).toBeUndefined();
      expect(config.preset).toBe("auto");
    });

    it("should fall back to truncating when the summary module cannot be loaded", async () => {
      const config = await mountWithPreset("auto", [["writer", completingProvider]], { summaryModule: "./missing-module.js" });
      expect(config.summaryStrategy).toBeUndefined();
    });
  });

  describe("summarize", () => {
    it("should add the summary strategy without a provider (its extractive summarizer)", async () => {
      const config = await mountWithPreset("summarize", []);
      expect(config.summaryStrategy).toMatchObject({ name: "summary", config: {} });
    });

    it("should fail with ModuleLoadError when the summary module is missing", async () => {
      await expect(mountWithPreset("summarize", [], { summaryModule: "./missing-module.js" })).rejects.toBeInstanceOf(ModuleLoadError);
    });
  });

  it("should reject an unknown preset in the plan", async () => {
    await expect(mountWithPreset("fastest" as never, [])).rejects.toSatisfy(
      (error) => error instanceof ContextConfigError && error.issues[0]?.path === "context.config.preset",
    );
  });

  it("should pass built-in strategies with options through to the context module", async () => {
    const coordinator = createCoordinator();
    const strategies = [{ name: "sliding-window", options: { windowSize: 10 } }, "truncate"];
    const manager = await mountPlan(coordinator, { context: { module: "./context-module.js", config: { strategies } } }, { cwd: fixtures });
    expect((manager as unknown as FixtureManager).config.strategies).toEqual(strategies);
  });
});
