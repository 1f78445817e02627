import { parseMessage, type Message } from "@ctxkit/core";
import { checkToolPairs, isInstruction, isPinned } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { budgetArbitrary } from "./budget-arbitrary.js";
import { historyArbitrary } from "./history-arbitrary.js";
import { invalidMessageArbitrary, INVALID_MESSAGES } from "./invalid-message-arbitrary.js";
import { sessionArbitrary } from "./session-arbitrary.js";
import { messageTextArbitrary } from "./text-arbitrary.js";
import { HUGE_OUTPUT_MINIMUM, toolOutputArbitrary, toolUnitArbitrary } from "./tool-unit-arbitraries.js";

const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns = 300) => fc.sample(arbitrary, { numRuns, seed: 42 });

function outputLength(message: Message): number {
  if (message.role !== "tool") return 0;
  return typeof message.content === "string" ? message.content.length : JSON.stringify(message.content).length;
}

describe("historyArbitrary", () => {
  it("should only generate messages that parseMessage accepts, unfrozen", () => {
    fc.assert(
      fc.property(historyArbitrary({ broken: true }), (history) => {
        history.forEach((message, index) => {
          expect(Object.isFrozen(message)).toBe(false);
          parseMessage(message, index);
        });
      }),
    );
  });

  it("should generate valid tool pairing unless asked for broken histories", () => {
    fc.assert(fc.property(historyArbitrary(), (history) => checkToolPairs(history).length === 0));
  });

  it("should generate dangling calls, orphan results and results not adjacent to their call when broken", () => {
    const kinds = new Set(
      sample(historyArbitrary({ broken: true })).flatMap((history) => checkToolPairs(history).map((violation) => violation.kind)),
    );
    expect(kinds).toEqual(new Set(["dangling_call", "orphan_result", "result_not_adjacent"]));
  });

  it("should put system and developer messages first and elsewhere, and pin some messages", () => {
    const histories = sample(historyArbitrary());
    expect(histories.some((history) => history[0]?.role === "system")).toBe(true);
    expect(histories.some((history) => history[0]?.role === "developer")).toBe(true);
    expect(
      histories.some((history) => history.slice(1).some((message, index) => isInstruction(message) && !isInstruction(history[index]!))),
    ).toBe(true);
    expect(histories.some((history) => history.some(isPinned))).toBe(true);
  });

  it("should make a huge output (200 KB or more) rare but present, and none when hugeOutputs is false", () => {
    const withHuge = (histories: Message[][]) =>
      histories.filter((history) => history.some((message) => outputLength(message) >= HUGE_OUTPUT_MINIMUM)).length;
    const count = withHuge(sample(historyArbitrary(), 500));
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(500 * 0.15);
    expect(withHuge(sample(historyArbitrary({ hugeOutputs: false }), 500))).toBe(0);
  });
});

describe("toolUnitArbitrary", () => {
  it("should generate single and parallel calls, with results sometimes out of call order", () => {
    const units = sample(toolUnitArbitrary({ hugeOutputs: false }));
    const callCounts = units.map((unit) => (unit[0]?.role === "assistant" ? (unit[0].tool_calls?.length ?? 0) : 0));
    expect(callCounts).toContain(1);
    expect(Math.max(...callCounts)).toBeGreaterThanOrEqual(3);
    const isReordered = (unit: Message[]) => {
      const calls = unit[0]?.role === "assistant" ? (unit[0].tool_calls ?? []).map((call) => call.id) : [];
      return unit.slice(1).some((result, index) => result.role === "tool" && result.tool_call_id !== calls[index]);
    };
    expect(units.some(isReordered)).toBe(true);
  });

  it("should shrink a huge output to a tiny one when size does not matter to the failure", () => {
    const size = (output: unknown) => JSON.stringify(output).length;
    const seed = [...Array(10_000).keys()].find(
      (candidate) => size(fc.sample(toolOutputArbitrary(), { numRuns: 1, seed: candidate })[0]) >= HUGE_OUTPUT_MINIMUM,
    );
    expect(seed).toBeDefined();
    const details = fc.check(
      fc.property(toolOutputArbitrary(), () => false),
      { seed: seed!, numRuns: 1 },
    );
    expect(size(details.counterexample?.[0])).toBeLessThan(10);
  });
});

describe("messageTextArbitrary", () => {
  it("should mix CJK, emoji, combining marks, right-to-left scripts and newlines", () => {
    const text = sample(messageTextArbitrary()).join("");
    expect(text).toMatch(/\p{Script=Han}/u);
    expect(text).toMatch(/\p{Script=Hangul}/u);
    expect(text).toMatch(/\p{Extended_Pictographic}/u);
    expect(text).toMatch(/\p{Mark}/u);
    expect(text).toMatch(/\p{Script=Arabic}/u);
    expect(text).toContain("\n");
  });
});

describe("budgetArbitrary", () => {
  it("should range from absurdly small to generous", () => {
    const budgets = sample(budgetArbitrary(), 1_000);
    expect(Math.min(...budgets)).toBeLessThanOrEqual(16);
    expect(Math.max(...budgets)).toBeGreaterThan(100_000);
    expect(budgets.filter((budget) => budget >= 256 && budget <= 4_096).length).toBeGreaterThan(250);
  });

  it("should respect min and max", () => {
    const budgets = sample(budgetArbitrary({ min: 100, max: 200 }));
    expect(budgets.every((budget) => budget >= 100 && budget <= 200)).toBe(true);
  });
});

describe("invalidMessageArbitrary", () => {
  it("should only generate values that parseMessage rejects", () => {
    for (const [reason, value] of Object.entries(INVALID_MESSAGES)) {
      expect(() => parseMessage(value), reason).toThrow(/Invalid message/);
    }
    fc.assert(
      fc.property(invalidMessageArbitrary(), ({ value }) => {
        expect(() => parseMessage(value)).toThrow();
      }),
    );
  });
});

describe("sessionArbitrary", () => {
  it("should end with a request after the whole history, with earlier requests in order", () => {
    fc.assert(
      fc.property(sessionArbitrary(), ({ history, requests }) => {
        expect(requests.at(-1)?.after).toBe(history.length);
        requests.forEach((request, index) => expect(request.after).toBeGreaterThanOrEqual(requests[index - 1]?.after ?? 0));
      }),
    );
  });

  it("should state some budgets through a provider whose window minus its output reservation is the budget", () => {
    const requests = sample(sessionArbitrary({ hugeOutputs: false })).flatMap((session) => session.requests);
    const throughProvider = requests.filter((request) => request.provider !== undefined);
    expect(throughProvider.length).toBeGreaterThan(0);
    expect(throughProvider.every((request) => request.provider!.contextWindow - request.provider!.maxOutputTokens === request.budget)).toBe(
      true,
    );
  });

  it("should use one budget for every request with sameBudget", () => {
    fc.assert(
      fc.property(
        sessionArbitrary({ sameBudget: true, hugeOutputs: false }),
        ({ requests }) => new Set(requests.map((request) => request.budget)).size === 1,
      ),
    );
  });
});
