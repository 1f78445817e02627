import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ContextConfigError } from "../errors.js";
import { loadMountPlan, MAX_MOUNT_PLAN_BYTES } from "./load-mount-plan.js";

const folder = mkdtempSync(join(tmpdir(), "ctxkit-load-plan-"));
afterAll(() => {
  // A reader still waiting on the FIFO (a plan loader that blocks on it) is let go before the folder goes.
  try {
    closeSync(openSync(join(folder, "plan.fifo"), constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {}
  rmSync(folder, { recursive: true, force: true });
});

const plan = { context: { module: "@ctxkit/context-simple", config: { preset: "truncate", maxTokens: 8_000 } } };
writeFileSync(join(folder, "plan.json"), JSON.stringify(plan));
writeFileSync(join(folder, "other.json"), JSON.stringify({ context: { module: "./mine.js" } }));
writeFileSync(join(folder, "broken.json"), "{ context: ");
writeFileSync(join(folder, "invalid.json"), JSON.stringify({ context: { module: "" }, extra: 1 }));
execFileSync("mkfifo", [join(folder, "plan.fifo")]);
mkdirSync(join(folder, "plans"));
writeFileSync(join(folder, "huge.json"), `{"context": {"module": "./mine.js"}, "padding": "${"x".repeat(MAX_MOUNT_PLAN_BYTES)}"}`);

async function rejection(promise: Promise<unknown>): Promise<ContextConfigError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ContextConfigError);
  return error as ContextConfigError;
}

describe("loadMountPlan", () => {
  describe("file", () => {
    it("should read and validate a JSON file, relative to cwd", async () => {
      expect(await loadMountPlan({ file: "plan.json", cwd: folder, env: {} })).toEqual(plan);
    });

    it("should name the file in the error when it is missing, not JSON, or not a plan", async () => {
      expect((await rejection(loadMountPlan({ file: "nope.json", cwd: folder, env: {} }))).module).toBe("mount plan (nope.json)");
      expect((await rejection(loadMountPlan({ file: "broken.json", cwd: folder, env: {} }))).message).toMatch(
        /broken\.json.*not valid JSON/,
      );
      const invalid = await rejection(loadMountPlan({ file: "invalid.json", cwd: folder, env: {} }));
      expect(invalid.issues.map((issue) => issue.path).sort()).toEqual(["context.module", "extra"]);
    });
  });

  describe("a path that is not a plan file", () => {
    it("should refuse a FIFO named by CTXKIT_MOUNT_PLAN at once, naming the path, instead of waiting for a writer (regression)", async () => {
      const error = await rejection(loadMountPlan({ cwd: folder, env: { CTXKIT_MOUNT_PLAN: "plan.fifo" } }));
      expect(error.module).toBe("mount plan (CTXKIT_MOUNT_PLAN → plan.fifo)");
      expect(error.message).toMatch(/plan\.fifo is not a regular file \(a FIFO\)/);
    });

    it("should refuse a directory and a device, naming each", async () => {
      expect((await rejection(loadMountPlan({ file: "plans", cwd: folder, env: {} }))).message).toMatch(
        /plans is not a regular file \(a directory\)/,
      );
      expect((await rejection(loadMountPlan({ file: "/dev/zero", env: {} }))).message).toMatch(
        /\/dev\/zero is not a regular file \(a device\)/,
      );
    });

    it("should refuse a file over the size limit without parsing it", async () => {
      const error = await rejection(loadMountPlan({ file: "huge.json", cwd: folder, env: {} }));
      expect(error.message).toMatch(new RegExp(`huge\\.json is \\d+ bytes, over the ${MAX_MOUNT_PLAN_BYTES}-byte limit`));
    });
  });

  describe("env", () => {
    it("should prefer CTXKIT_MOUNT_PLAN's JSON over the file", async () => {
      const env = { CTXKIT_MOUNT_PLAN: JSON.stringify({ context: { module: "./from-env.js" } }) };
      expect(await loadMountPlan({ file: "plan.json", cwd: folder, env })).toEqual({ context: { module: "./from-env.js" } });
    });

    it("should read a file path given in CTXKIT_MOUNT_PLAN", async () => {
      expect(await loadMountPlan({ cwd: folder, env: { CTXKIT_MOUNT_PLAN: "other.json" } })).toEqual({ context: { module: "./mine.js" } });
    });

    it("should name the variable when its JSON is bad", async () => {
      const error = await rejection(loadMountPlan({ env: { CTXKIT_MOUNT_PLAN: '{"context": 1}' } }));
      expect(error.module).toBe("mount plan (CTXKIT_MOUNT_PLAN)");
    });

    it("should fall back to the file when the variable is empty, and fail when there is neither", async () => {
      expect(await loadMountPlan({ file: "plan.json", cwd: folder, env: { CTXKIT_MOUNT_PLAN: "  " } })).toEqual(plan);
      expect((await rejection(loadMountPlan({ env: {} }))).issues[0]?.path).toBe("CTXKIT_MOUNT_PLAN");
    });
  });
});
