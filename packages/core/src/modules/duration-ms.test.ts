import { describe, expect, it } from "vitest";
import { createTestContext, createTestView, userMessage } from "../../test/strategy-context.js";
import { createContextManager } from "../engine/create-context-manager.js";
import { ContextArgumentError, ContextConfigError } from "../errors.js";
import { runPipeline } from "../pipeline/run-pipeline.js";
import { withTimeout } from "../pipeline/with-timeout.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { microcompact } from "../strategies/microcompact.js";
import { durationMsProblem, durationMsSchema, MAX_DURATION_MS } from "./duration-ms.js";

const HOSTILE = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 0, 0.5, 2 ** 31, 2 ** 53, "100", null, {}];

async function configErrorOf(config: Record<string, unknown>): Promise<ContextConfigError> {
  const error = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate", ...config }).then(
    (manager) => manager.close().then(() => undefined),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ContextConfigError);
  return error as ContextConfigError;
}

describe("durationMsSchema", () => {
  it("should take every whole number of milliseconds from 1 to 2^31−1", () => {
    for (const value of [1, 5_000, MAX_DURATION_MS]) expect(durationMsSchema.parse(value)).toBe(value);
  });

  it("should refuse what no timer can honour, saying why", () => {
    for (const value of HOSTILE) expect(durationMsProblem(value), String(value)).toBeTypeOf("string");
    expect(durationMsProblem(2 ** 31)).toContain("2147483647");
    expect(durationMsProblem(0)).toContain("at least 1 ms");
    expect(durationMsProblem(0.5)).toContain("whole number");
  });
});

describe("the engine's duration options", () => {
  for (const option of ["strategyTimeoutMs", "eventHandlerTimeoutMs"]) {
    it(`should refuse a ${option} of 2^31 ms, which Node would run after 1 ms, naming the option and the limit (regression)`, async () => {
      const error = await configErrorOf({ [option]: 2 ** 31 });
      expect(error.issues).toEqual([{ path: option, message: expect.stringContaining("2147483647") }]);
    });
  }

  it("should refuse microcompact's idleMs beyond what a timer honours, and take null", () => {
    expect(() => microcompact({ idleMs: 2 ** 31 })).toThrow(ContextConfigError);
    expect(() => microcompact({ idleMs: 2 ** 31 })).toThrow(/idleMs/);
    expect(microcompact({ idleMs: null }).idleAfterMs).toBeUndefined();
  });
});

describe("durations given in code", () => {
  it("should make withTimeout refuse a duration no timer can honour, naming it, before the step runs (regression)", async () => {
    let ran = false;
    const call = () =>
      withTimeout("The summarizer", 2 ** 31, new AbortController().signal, async () => {
        ran = true;
        return "done";
      });
    expect(call).toThrow(ContextArgumentError);
    expect(call).toThrow(/timeoutMs.*2147483647/);
    expect(ran).toBe(false);
  });

  it("should make runPipeline refuse a strategyTimeoutMs no timer can honour, once, rather than fail every strategy", async () => {
    const view = createTestView([userMessage("now")]);
    await expect(runPipeline(view, [], createTestContext({ target: 0 }), { strategyTimeoutMs: 0 })).rejects.toMatchObject({
      code: "CONTEXT_ARGUMENT",
      issues: [{ path: "options.strategyTimeoutMs", message: expect.stringContaining("at least 1 ms") }],
    });
  });
});
