import { describe, expect, it } from "vitest";
import { ContextValidationError } from "../errors.js";
import { assistantMessage, userMessage } from "../testing/message-builders.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { SessionHistory } from "./session-history.js";

/** Counts one token per character and records each text it counts. */
function countingCounter(): TokenCounter & { calls: number } {
  const counter = { name: "chars", calls: 0, count: (text: string) => ((counter.calls += 1), text.length) };
  return counter;
}

describe("SessionHistory", () => {
  it("should count a message once, however often its tokens are asked for", () => {
    const counter = countingCounter();
    const history = new SessionHistory(counter);
    history.append(userMessage("hello"));
    const first = history.tokensOf(0);
    const calls = counter.calls;
    expect(history.tokensOf(0)).toBe(first);
    expect(counter.calls).toBe(calls);
  });

  it("should swap the array on reset, so an array handed out earlier keeps the history it was", () => {
    const history = new SessionHistory(countingCounter());
    history.append(userMessage("old"));
    const handedOut = history.messages;
    history.reset([assistantMessage("new")]);
    expect(handedOut.map((message) => message.content)).toEqual(["old"]);
    expect(history.messages.map((message) => message.content)).toEqual(["new"]);
  });

  it("should forget token counts on reset", () => {
    const counter = countingCounter();
    const history = new SessionHistory(counter);
    history.append(userMessage("a"));
    const short = history.tokensOf(0);
    history.reset([userMessage("a much longer message")]);
    expect(history.tokensOf(0)).toBeGreaterThan(short);
  });

  it("should freeze messages a store hands back", () => {
    const history = new SessionHistory(countingCounter());
    history.appendStored([{ role: "user", content: "from another writer" }]);
    expect(Object.isFrozen(history.messages[0])).toBe(true);
  });

  it("should resolve negative indices from the end and name the range when out of it", () => {
    const history = new SessionHistory(countingCounter());
    expect(() => history.resolveIndex(0)).toThrow(/the history is empty/);
    history.append(userMessage("a"));
    history.append(userMessage("b"));
    expect(history.resolveIndex(-1)).toBe(1);
    expect(history.resolveIndex(0)).toBe(0);
    expect(() => history.resolveIndex(2)).toThrow(ContextValidationError);
    expect(() => history.resolveIndex(1.5)).toThrow(/0 to 1, or -1 for the latest/);
  });
});
