import { describe, expect, it } from "vitest";
import {
  ContextBudgetError,
  ContextConfigError,
  ContextError,
  ContextStateConflictError,
  ModuleLoadError,
  MountPointError,
} from "./errors.js";

describe("errors", () => {
  it("should give every error a stable code, its figures and the ContextError base", () => {
    const budget = new ContextBudgetError(100, 250);
    expect(budget).toBeInstanceOf(ContextError);
    expect(budget).toMatchObject({ code: "CONTEXT_BUDGET", budget: 100, required: 250, name: "ContextBudgetError" });
    expect(budget.message).toMatch(/250.*100/);
  });

  it("should list every config issue in the message", () => {
    const error = new ContextConfigError("context-simple", [
      { path: "maxTokenz", message: "unknown key" },
      { path: "targetRatio", message: "must be at most 1" },
    ]);
    expect(error.message).toContain("maxTokenz: unknown key");
    expect(error.message).toContain("targetRatio: must be at most 1");
  });

  it("should name what a module is missing and which mount points exist", () => {
    expect(new ModuleLoadError("./m.js", ["mount", "meta"]).message).toContain("mount, meta");
    expect(new MountPointError("session", ["context", "providers"]).message).toContain("context, providers");
  });

  it("should name the strategy and key of a state conflict, and say to sync and retry", () => {
    const conflict = new ContextStateConflictError("summary", "checkpoint");
    expect(conflict).toBeInstanceOf(ContextError);
    expect(conflict).toMatchObject({
      code: "CONTEXT_STATE_CONFLICT",
      strategy: "summary",
      key: "checkpoint",
      name: "ContextStateConflictError",
    });
    expect(conflict.message).toMatch(/sync.*retry/i);
  });
});
