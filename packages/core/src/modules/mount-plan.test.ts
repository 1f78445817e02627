import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createCoordinator } from "../coordinator/create-coordinator.js";
import { ContextConfigError, ModuleLoadError } from "../errors.js";
import type { Strategy } from "../pipeline/strategy.js";
import { MockContextManager } from "../testing/mock-context-manager.js";
import { mountPlan, mountPlanSchema } from "./mount-plan.js";

const fixtures = fileURLToPath(new URL("../../test/__fixtures__/modules/", import.meta.url));

/** The fixture manager keeps the config its module was mounted with. */
interface FixtureManager {
  config: { maxTokens?: number; strategies?: Array<string | (Strategy & { options: unknown; coordinator: unknown })> };
  isClosed: boolean;
}

describe("mountPlan end to end", () => {
  it("should mount the context module with built-in names kept and strategy modules created", async () => {
    const coordinator = createCoordinator();
    const manager = await mountPlan(
      coordinator,
      {
        context: {
          module: "./context-module.js",
          config: {
            maxTokens: 8_000,
            strategies: [
              "clear-tool-results",
              { module: path.join(fixtures, "strategy-module.js"), config: { keep: 5 } },
              { module: "./strategy-module.js" },
            ],
          },
        },
      },
      { cwd: fixtures },
    );

    expect(coordinator.get("context")).toBe(manager);
    const { config } = manager as unknown as FixtureManager;
    expect(config.maxTokens).toBe(8_000);
    const [builtIn, configured, defaulted] = config.strategies ?? [];
    expect(builtIn).toBe("clear-tool-results");
    expect(configured).toMatchObject({ name: "fixture-strategy", options: { keep: 5 }, coordinator });
    expect(defaulted).toMatchObject({ name: "fixture-strategy", options: { keep: 3 } });
  });

  it("should register the module's cleanup with the coordinator", async () => {
    const coordinator = createCoordinator();
    const manager = await mountPlan(coordinator, { context: { module: "./context-module.js" } }, { cwd: fixtures });
    expect((manager as unknown as FixtureManager).isClosed).toBe(false);
    await coordinator.cleanup();
    expect((manager as unknown as FixtureManager).isClosed).toBe(true);
  });

  it("should mount a working manager", async () => {
    const manager = await mountPlan(createCoordinator(), { context: { module: "./folder-module" } }, { cwd: fixtures });
    await manager.addMessage({ role: "user", content: "hello" });
    expect(await manager.getMessages()).toEqual([{ role: "user", content: "hello" }]);
  });
});

describe("mountPlan plan validation", () => {
  it("should list every problem in the plan in one ContextConfigError", async () => {
    const plan = {
      extra: true,
      context: { module: "", bogus: 1, config: { strategies: [7, { module: 3 }, { module: "x", what: 1 }] } },
    };
    const error = await mountPlan(createCoordinator(), plan as never).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ContextConfigError);
    expect((error as ContextConfigError).module).toBe("mount plan");
    expect((error as ContextConfigError).issues).toEqual(
      expect.arrayContaining([
        { path: "extra", message: "unknown key" },
        { path: "context.bogus", message: "unknown key" },
        { path: "context.module", message: "give a package name or a path" },
        { path: "context.config.strategies.0", message: "Invalid input: expected string or object" },
        { path: "context.config.strategies.1.module", message: expect.stringContaining("expected string") },
        { path: "context.config.strategies.2.what", message: "unknown key" },
      ]),
    );
    expect((error as ContextConfigError).issues).toHaveLength(6);
  });

  it("should accept the documented plan shape", () => {
    const plan = { context: { module: "@ctxkit/context-simple", config: { maxTokens: 1, strategies: ["truncate", { module: "x" }] } } };
    expect(mountPlanSchema.parse(plan)).toEqual(plan);
  });
});

describe("mountPlan module errors", () => {
  it("should reject a strategy module given as the context module", async () => {
    const error = await mountPlan(createCoordinator(), { context: { module: "./strategy-module.js" } }, { cwd: fixtures }).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ModuleLoadError);
    expect((error as ModuleLoadError).missing).toEqual(["meta.type"]);
  });

  it("should reject a context module given as a strategy", async () => {
    const plan = { context: { module: "./context-module.js", config: { strategies: [{ module: "./context-module.js" }] } } };
    const error = await mountPlan(createCoordinator(), plan, { cwd: fixtures }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ModuleLoadError);
    expect((error as ModuleLoadError).message).toContain('"strategy" here (got "context")');
  });

  it("should throw ModuleLoadError when the module mounts nothing", async () => {
    const coordinator = createCoordinator();
    await coordinator.mount("context", new MockContextManager());
    const error = await mountPlan(coordinator, { context: { module: "./mounts-nothing-module.js" } }, { cwd: fixtures }).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ModuleLoadError);
    expect((error as ModuleLoadError).message).toContain("did not mount a context manager");
  });

  it("should let the context module's own config error through", async () => {
    const plan = { context: { module: "./context-module.js", config: { maxTokens: -1 } } };
    await expect(mountPlan(createCoordinator(), plan, { cwd: fixtures })).rejects.toThrow(/maxTokens/);
  });
});
