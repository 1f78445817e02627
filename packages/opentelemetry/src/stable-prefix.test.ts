import { estimateCounter } from "@ctxkit/core";
import { countMessageTokens } from "@ctxkit/core/kit";
import { assistantMessage, systemMessage, userMessage } from "@ctxkit/core/testing";
import { describe, expect, it } from "vitest";
import { StablePrefixTracker } from "./stable-prefix.js";

const tokens = (...messages: ReturnType<typeof userMessage>[]) =>
  messages.reduce((sum, message) => sum + countMessageTokens(message, estimateCounter()), 0);

describe("StablePrefixTracker", () => {
  const system = systemMessage("You are terse.");
  const question = userMessage("What is in a.txt? ".repeat(10));
  const answer = assistantMessage("alpha");

  it("should have nothing to compare the first view with", () => {
    expect(new StablePrefixTracker().next([system, question])).toBeUndefined();
  });

  it("should count an appended view as all stable up to what was added", () => {
    const tracker = new StablePrefixTracker();
    tracker.next([system, question]);
    const stable = tracker.next([system, question, answer]);
    expect(stable).toEqual({ messages: 2, share: tokens(system, question) / tokens(system, question, answer) });
  });

  it("should take an equal copy as the same message, since a provider's cache compares bytes", () => {
    const tracker = new StablePrefixTracker();
    tracker.next([system, question]);
    expect(tracker.next([{ ...system }, { ...question }])).toEqual({ messages: 2, share: 1 });
  });

  it("should stop at the first message that changed", () => {
    const tracker = new StablePrefixTracker();
    tracker.next([system, question, answer]);
    const summary = userMessage("[summary] a.txt was read");
    expect(tracker.next([system, summary, answer])).toEqual({
      messages: 1,
      share: tokens(system) / tokens(system, summary, answer),
    });
  });

  it("should compare each view with the one just before it", () => {
    const tracker = new StablePrefixTracker();
    tracker.next([system]);
    tracker.next([question]);
    expect(tracker.next([question, answer])!.messages).toBe(1);
  });

  it("should keep its own copy of the view, since the caller owns the array it was handed", () => {
    const tracker = new StablePrefixTracker();
    const view = [system, question];
    tracker.next(view);
    view.length = 0; // an agent reusing the array for the next request
    expect(tracker.next([system, question, answer])!.messages).toBe(2);
  });
});
