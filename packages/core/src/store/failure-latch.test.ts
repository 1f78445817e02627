import { describe, expect, it } from "vitest";
import { FailureLatch } from "./failure-latch.js";

describe("FailureLatch", () => {
  it("should run steps while nothing failed", async () => {
    const latch = new FailureLatch();
    await expect(latch.run(async () => 1)).resolves.toBe(1);
    expect(latch.failure).toBeUndefined();
  });

  it("should keep the first failure, and refuse every later step with it", async () => {
    const latch = new FailureLatch();
    const first = new Error("disk full");
    await expect(latch.run(() => Promise.reject(first))).rejects.toBe(first);
    let ran = false;
    await expect(latch.run(async () => void (ran = true))).rejects.toBe(first);
    expect(ran).toBe(false);
    expect(latch.trip(new Error("later"))).toBe(first);
    expect(latch.failure?.error).toBe(first);
  });

  it("should latch and throw the error toFailure maps a failure to", async () => {
    const latch = new FailureLatch();
    const mapped = await latch
      .run(
        () => Promise.reject(new Error("raw")),
        (error) => ({ wrapped: error }),
      )
      .catch((error: unknown) => error);
    expect(mapped).toEqual({ wrapped: new Error("raw") });
    expect(latch.failure?.error).toBe(mapped);
  });
});
