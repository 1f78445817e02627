import { ContextArgumentError } from "../errors.js";
import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "./circuit-breaker.js";

/** Fails `count` times in a row, one failure per run, as the pipeline would. */
function failRuns(breaker: CircuitBreaker, name: string, count: number): void {
  for (let run = 0; run < count; run += 1) {
    breaker.tick();
    breaker.recordFailure(name);
  }
}

describe("CircuitBreaker", () => {
  describe("failureThreshold", () => {
    it("should stay closed below the threshold and open when it is reached", () => {
      const breaker = new CircuitBreaker({ failureThreshold: 3 });
      failRuns(breaker, "summary", 2);
      expect(breaker.state("summary")).toBe("closed");
      failRuns(breaker, "summary", 1);
      expect(breaker.state("summary")).toBe("open");
      expect(breaker.consecutiveFailures("summary")).toBe(3);
    });

    it("should count consecutive failures only: a success resets them", () => {
      const breaker = new CircuitBreaker({ failureThreshold: 2 });
      failRuns(breaker, "summary", 1);
      breaker.recordSuccess("summary");
      failRuns(breaker, "summary", 1);
      expect(breaker.state("summary")).toBe("closed");
      expect(breaker.consecutiveFailures("summary")).toBe(1);
    });

    it("should keep each strategy's failures apart", () => {
      const breaker = new CircuitBreaker({ failureThreshold: 1 });
      failRuns(breaker, "summary", 1);
      expect(breaker.shouldRun("summary")).toBe(false);
      expect(breaker.shouldRun("truncate")).toBe(true);
    });

    it("should return the running count from recordFailure", () => {
      const breaker = new CircuitBreaker();
      expect([breaker.recordFailure("a"), breaker.recordFailure("a")]).toEqual([1, 2]);
    });
  });

  describe("cooldownRequests", () => {
    it("should skip an open strategy for exactly cooldownRequests runs, then let one trial through", () => {
      const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownRequests: 2 });
      failRuns(breaker, "summary", 1);
      const decisions: boolean[] = [];
      for (let run = 0; run < 3; run += 1) {
        breaker.tick();
        decisions.push(breaker.shouldRun("summary"));
      }
      expect(decisions).toEqual([false, false, true]);
      expect(breaker.state("summary")).toBe("half-open");
    });

    it("should close on a successful trial", () => {
      const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownRequests: 0 });
      failRuns(breaker, "summary", 1);
      breaker.tick();
      breaker.recordSuccess("summary");
      expect(breaker.state("summary")).toBe("closed");
      expect(breaker.consecutiveFailures("summary")).toBe(0);
    });

    it("should reopen for a full cool-down on a failed trial", () => {
      const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownRequests: 1 });
      failRuns(breaker, "summary", 2);
      breaker.tick();
      expect(breaker.shouldRun("summary")).toBe(false);
      failRuns(breaker, "summary", 1);
      expect(breaker.state("summary")).toBe("open");
      breaker.tick();
      expect(breaker.shouldRun("summary")).toBe(false);
      breaker.tick();
      expect(breaker.shouldRun("summary")).toBe(true);
    });
  });

  describe("options", () => {
    it("should reject a threshold below 1 and a negative or fractional cool-down", () => {
      expect(() => new CircuitBreaker({ failureThreshold: 0 })).toThrow(ContextArgumentError);
      expect(() => new CircuitBreaker({ cooldownRequests: -1 })).toThrow(ContextArgumentError);
      expect(() => new CircuitBreaker({ cooldownRequests: 1.5 })).toThrow(ContextArgumentError);
    });
  });
});
