import { describe, expect, it } from "vitest";
import { ContextStateConflictError } from "../errors.js";
import { retryStateWrite } from "./state-write-retry.js";

const conflict = () => new ContextStateConflictError("(pins)", "indices");

describe("retryStateWrite", () => {
  it("should try again after each conflict and resolve with the attempt that stored its change", async () => {
    let calls = 0;
    const result = await retryStateWrite(async () => {
      calls += 1;
      if (calls < 3) throw conflict();
      return calls;
    });
    expect(result).toBe(3);
  });

  it("should reject with the conflict after the last attempt, never resolving as if written", async () => {
    let calls = 0;
    const outcome = retryStateWrite(async () => {
      calls += 1;
      throw conflict();
    }, 4);
    await expect(outcome).rejects.toMatchObject({ code: "CONTEXT_STATE_CONFLICT", strategy: "(pins)", key: "indices" });
    expect(calls).toBe(4);
  });

  it("should pass any other error on at once", async () => {
    let calls = 0;
    const failure = new Error("server gone");
    await expect(
      retryStateWrite(async () => {
        calls += 1;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(calls).toBe(1);
  });
});
