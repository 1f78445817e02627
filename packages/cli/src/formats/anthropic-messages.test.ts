import { describe, expect, it } from "vitest";
import { anthropicMessages } from "./anthropic-messages.js";
import { fixtureText, readError } from "./read-fixture.js";

const text = fixtureText("anthropic.json");

describe("anthropicMessages", () => {
  it("should read the system and the messages through fromAnthropicMessages: tool_result blocks become tool messages", () => {
    const { messages, skipped } = anthropicMessages.read({ file: "request.json", text });
    expect(messages).toEqual([
      { role: "system", content: "You are a coding agent working in /srv/app." },
      { role: "user", content: "What does the retry_budget setting do?" },
      {
        role: "assistant",
        content: [{ type: "text", text: "Let me look it up." }],
        tool_calls: [{ id: "toolu_01Qk", type: "function", function: { name: "grep", arguments: '{"pattern":"retry_budget"}' } }],
      },
      { role: "tool", tool_call_id: "toolu_01Qk", content: "src/http_client.ts:12: const retry_budget = 3;" },
      { role: "assistant", content: "retry_budget caps the retries in src/http_client.ts at 3." },
    ]);
    expect(skipped).toEqual({});
  });

  it("should name the line of a message the adapter refuses", () => {
    const broken = text.replace('{ "role": "assistant", "content": "retry_budget', '{ "role": "model", "content": "retry_budget');
    const error = readError(anthropicMessages, "request.json", broken);
    expect(error).toMatchObject({ code: "CLI_SESSION_READ", line: 16 });
    expect((error as Error).message).toMatch(/^request\.json:16: entry 3, field "role"/);
  });

  it("should recognize a request with a system, or Anthropic's blocks, and not plain Chat messages", () => {
    expect(anthropicMessages.detect({ document: JSON.parse(text) })).toBe(true);
    expect(anthropicMessages.detect({ document: JSON.parse(text).messages })).toBe(true);
    expect(anthropicMessages.detect({ document: [{ role: "user", content: "hi" }] })).toBe(false);
  });
});
