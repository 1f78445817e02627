import { describe, expect, it } from "vitest";
import { SummaryBreaker } from "./summary-breaker.js";

/** Which of `rounds` attempts were let through, failing every one that was. */
function attemptsWhileFailing(breaker: SummaryBreaker, rounds: number): number[] {
  const attempted: number[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    if (breaker.shouldSkip()) continue;
    attempted.push(round);
    breaker.recordFailure();
  }
  return attempted;
}

describe("SummaryBreaker", () => {
  it("should open after failureThreshold consecutive failures, skip cooldownRequests, then try once", () => {
    expect(attemptsWhileFailing(new SummaryBreaker(2, 3), 12)).toEqual([1, 2, 6, 10]);
  });

  it("should count failures only while they are consecutive", () => {
    const breaker = new SummaryBreaker(2, 3);
    breaker.recordFailure();
    breaker.recordSuccess();
    expect(breaker.recordFailure()).toBe(1);
    expect(breaker.shouldSkip()).toBe(false);
  });

  it("should close again after a half-open trial succeeds", () => {
    const breaker = new SummaryBreaker(1, 2);
    breaker.recordFailure();
    expect([breaker.shouldSkip(), breaker.shouldSkip(), breaker.shouldSkip()]).toEqual([true, true, false]);
    breaker.recordSuccess();
    expect(breaker.consecutiveFailures).toBe(0);
    expect(breaker.shouldSkip()).toBe(false);
  });

  it("should never skip with a cool-down of 0", () => {
    expect(attemptsWhileFailing(new SummaryBreaker(1, 0), 4)).toEqual([1, 2, 3, 4]);
  });
});
