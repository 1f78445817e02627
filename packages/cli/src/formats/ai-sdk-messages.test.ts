import { describe, expect, it } from "vitest";
import { aiSdkMessages } from "./ai-sdk-messages.js";
import { fixtureText, readError } from "./read-fixture.js";

const text = fixtureText("ai-sdk.json");

describe("aiSdkMessages", () => {
  it("should read ModelMessage[] through fromModelMessages: tool-call parts become tool_calls, results tool messages", () => {
    const { messages, skipped } = aiSdkMessages.read({ file: "messages.json", text });
    expect(messages).toEqual([
      { role: "system", content: "You are a coding agent working in /srv/app." },
      { role: "user", content: "Which port does dev_server.ts listen on?" },
      {
        role: "assistant",
        content: "Reading it.",
        tool_calls: [{ id: "call_P7", type: "function", function: { name: "readFile", arguments: '{"path":"src/dev_server.ts"}' } }],
      },
      { role: "tool", tool_call_id: "call_P7", content: "app.listen(4173);" },
      { role: "assistant", content: "src/dev_server.ts listens on port 4173." },
    ]);
    expect(skipped).toEqual({});
  });

  it("should name the line of a message the adapter refuses", () => {
    const broken = text.replace('{ "role": "assistant", "content": "src/dev_server.ts', '{ "role": "robot", "content": "src/dev_server.ts');
    const error = readError(aiSdkMessages, "messages.json", broken);
    expect(error).toMatchObject({ code: "CLI_SESSION_READ", line: 17 });
  });

  it("should recognize AI SDK parts, and not Chat messages", () => {
    expect(aiSdkMessages.detect({ document: JSON.parse(text) })).toBe(true);
    expect(aiSdkMessages.detect({ document: [{ role: "user", content: "hi" }] })).toBe(false);
  });
});
