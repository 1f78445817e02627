import { describe, expect, it } from "vitest";
import { openaiResponses } from "./openai-responses.js";
import { fixtureText, readError } from "./read-fixture.js";

const text = fixtureText("openai-responses.json");

describe("openaiResponses", () => {
  it("should read input items through fromResponseInputItems: a call becomes tool_calls, its output a tool message", () => {
    const { messages, skipped } = openaiResponses.read({ file: "items.json", text });
    expect(messages).toEqual([
      { role: "developer", content: "You are a coding agent working in /srv/app." },
      { role: "user", content: [{ type: "text", text: "List the files under config/deploy_targets." }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_Zx9", type: "function", function: { name: "shell", arguments: '{"cmd":"ls config/deploy_targets"}' } }],
      },
      { role: "tool", tool_call_id: "call_Zx9", content: "staging_eu.yaml\nproduction_us.yaml" },
      { role: "assistant", content: [{ type: "text", text: "Two targets: staging_eu.yaml and production_us.yaml." }] },
    ]);
    expect(skipped).toEqual({});
  });

  it("should read a request's input", () => {
    const request = JSON.stringify({ model: "gpt-5", input: JSON.parse(text) }, null, 2);
    expect(openaiResponses.read({ file: "request.json", text: request }).messages).toHaveLength(5);
  });

  it("should name the line of an item the adapter refuses", () => {
    const broken = text.replace('"type": "function_call_output", "call_id": "call_Zx9", ', '"type": "function_call_output", ');
    const error = readError(openaiResponses, "items.json", broken);
    expect(error).toMatchObject({ code: "CLI_SESSION_READ", line: 5 });
    expect((error as Error).message).toMatch(/^items\.json:5: entry 3, field "call_id"/);
  });

  it("should recognize typed items and Responses parts, and not Chat messages", () => {
    expect(openaiResponses.detect({ document: JSON.parse(text) })).toBe(true);
    expect(openaiResponses.detect({ document: [{ role: "user", content: "hi" }] })).toBe(false);
  });
});
