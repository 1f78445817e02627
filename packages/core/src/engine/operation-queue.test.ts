import { describe, expect, it } from "vitest";
import { OperationQueue } from "./operation-queue.js";

describe("OperationQueue", () => {
  it("should run operations one at a time, in call order", async () => {
    const queue = new OperationQueue();
    const log: string[] = [];
    const slow = queue.run(async () => {
      log.push("slow:start");
      await new Promise((resolve) => setTimeout(resolve, 20));
      log.push("slow:end");
    });
    const fast = queue.run(() => log.push("fast"));
    await Promise.all([slow, fast]);
    expect(log).toEqual(["slow:start", "slow:end", "fast"]);
  });

  it("should not wedge after a failed operation (regression)", async () => {
    const queue = new OperationQueue();
    await expect(queue.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(queue.run(() => 42)).resolves.toBe(42);
  });
});
