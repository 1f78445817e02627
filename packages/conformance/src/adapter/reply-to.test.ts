import { describe, expect, it } from "vitest";
import type { CountedReply } from "./adapter-subject.js";
import { estimateRequestTokens, replyTo } from "./reply-to.js";

const request = [
  { role: "user", content: [{ type: "text", text: "Step 1 output: the build step rewrote the route table. ".repeat(8) }] },
  { role: "assistant", content: "Noted." },
];

describe("replyTo", () => {
  it("should answer a scripted answer or rejection as it is, whatever the request", () => {
    const answer = { kind: "answer", text: "Answered.", usage: { input: 1, output: 2 } } as const;
    expect(replyTo(answer, request)).toBe(answer);
    expect(replyTo({ kind: "too-long" }, request)).toEqual({ kind: "too-long" });
  });

  it("should answer a counted reply with the usage it counted while the request fits the window, and reject it past", () => {
    const tokens = estimateRequestTokens(request);
    expect(tokens).toBeGreaterThan(100);
    const counted = (ratio: number, window: number): CountedReply => ({ kind: "counted", text: "Noted.", ratio, window });
    expect(replyTo(counted(1.5, Math.ceil(1.5 * tokens)), request)).toEqual({
      kind: "answer",
      text: "Noted.",
      usage: { input: Math.ceil(1.5 * tokens), output: 8 },
    });
    expect(replyTo(counted(1.5, Math.ceil(1.5 * tokens) - 1), request)).toEqual({ kind: "too-long" });
  });

  it("should count a longer request as more tokens, in any shape", () => {
    expect(estimateRequestTokens({ messages: [...request, ...request] })).toBeGreaterThan(estimateRequestTokens({ messages: request }));
  });
});
