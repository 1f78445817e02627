import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runAgent } from "./agent.js";
import { createMockModel } from "./mock-model.js";

describe("the AI SDK agent example", () => {
  it("should answer every question, keep the whole history and send a compacted view", async () => {
    const run = await runAgent(createMockModel(), ["a?", "b?", "c?", "d?"], 4_000);
    expect(run.answers).toHaveLength(4);
    expect(run.answers.every((answer) => answer.startsWith("Done"))).toBe(true);
    // Per turn: the question, a call to two files and their two results, a call and its result, the answer.
    expect(run.historyLength).toBe(4 * 7);
    expect(run.compactions).toBeGreaterThan(0);
    expect(run.lastViewLength).toBeLessThan(run.historyLength);
  });

  it("should run as a script with the mock model when no key is set", async () => {
    const env = { ...process.env };
    delete env["AI_GATEWAY_API_KEY"];
    const { stdout } = await promisify(execFile)("pnpm", ["start"], { cwd: new URL("..", import.meta.url), env });
    expect(stdout).toMatch(/mock model: 28 messages kept, \d+ in the last prompt, [1-9]\d* compactions/);
  });
});
