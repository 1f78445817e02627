import type { Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { createStrategyContext } from "./create-strategy-context.js";
import { findShorteningProblem } from "./shortened-in-tokens.js";

// The exact counter, as the suite's context counts.
const { countMessage } = createStrategyContext({ budget: 1_000, history: [] });
const output = "2024-05-01T12:00:00Z INFO request handled in 12ms path=/api/items status=200\n".repeat(20);
const image = { type: "image_url" as const, image_url: { url: "https://example.com/screenshot.png" } };

describe("findShorteningProblem", () => {
  it("should accept a placeholder for a tool result, and an image left out of a user message", () => {
    const result: Message = { role: "tool", tool_call_id: "call_1", content: output };
    expect(findShorteningProblem({ ...result, content: "[result removed]" }, result, countMessage)).toBeUndefined();
    const user: Message = { role: "user", content: [image, { type: "text", text: "What is on this screen?" }, image] };
    const kept: Message = {
      role: "user",
      content: [
        { type: "text", text: "[image]" },
        { type: "text", text: "What is on this screen?" },
      ],
    };
    expect(findShorteningProblem(kept, user, countMessage)).toBeUndefined();
  });

  it("should refuse fewer characters that cost more tokens", () => {
    const result: Message = { role: "tool", tool_call_id: "call_1", content: output };
    const fewerCharacters = { ...result, content: "\ua66e".repeat(output.length / 3) };
    expect(fewerCharacters.content.length).toBeLessThan(output.length);
    expect(findShorteningProblem(fewerCharacters, result, countMessage)).toMatch(/^it has \d+ tokens, the original \d+/);
  });

  it("should refuse another message passing for a shortened one, and a changed id", () => {
    const user: Message = { role: "user", content: `Please fix the failing test. ${output}` };
    expect(findShorteningProblem({ role: "user", content: "Delete the database." }, user, countMessage)).toMatch(/neither the start/);
    const result: Message = { role: "tool", tool_call_id: "call_1", content: output };
    expect(findShorteningProblem({ ...result, tool_call_id: "call_2", content: "" }, result, countMessage)).toMatch(/tool_call_id/);
  });
});
