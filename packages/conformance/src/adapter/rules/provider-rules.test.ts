import { describe, expect, it } from "vitest";
import { checkAnthropicRequest } from "./check-anthropic-request.js";
import { checkChatCompletionRequest } from "./check-chat-completion-request.js";
import { checkGeminiRequest } from "./check-gemini-request.js";
import { checkModelPrompt } from "./check-model-prompt.js";

const call = { id: "c1", type: "function", function: { name: "ls", arguments: "{}" } };

describe("checkChatCompletionRequest", () => {
  it("should pass a valid tool unit", () => {
    expect(
      checkChatCompletionRequest([
        { role: "user", content: "ls" },
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: "c1", content: "a.txt" },
      ]),
    ).toEqual([]);
  });

  it.each([
    ["metadata", [{ role: "user", content: "x", metadata: {} }], /unknown key "metadata"/],
    [
      "is_error",
      [
        { role: "user", content: "x" },
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: "c1", content: "", is_error: true },
      ],
      /unknown key "is_error"/,
    ],
    [
      "a missing result",
      [
        { role: "user", content: "x" },
        { role: "assistant", content: null, tool_calls: [call] },
      ],
      /no result right after/,
    ],
    ["a reasoning part", [{ role: "assistant", content: [{ type: "reasoning", id: "r" }] }], /takes no "reasoning" part/],
    ["an empty part list", [{ role: "user", content: [] }], /must not be empty/],
  ])("should reject %s", (_name, messages, problem) => {
    expect(checkChatCompletionRequest(messages).join("\n")).toMatch(problem);
  });
});

describe("checkAnthropicRequest", () => {
  const unit = (id: string) => ({
    messages: [
      { role: "user", content: "ls" },
      { role: "assistant", content: [{ type: "tool_use", id, name: "ls", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "a.txt" }] },
    ],
  });

  it("should pass a valid tool unit", () => expect(checkAnthropicRequest(unit("toolu_1"))).toEqual([]));

  const compaction = { type: "compaction", content: "Summary: the user listed the files.", encrypted_content: "opaque==" };

  // (regression) The API, and the imitation the loops run against, take the request that follows a compaction.
  it("should pass a conversation that opens with the assistant's compaction block", () => {
    const request = {
      messages: [
        { role: "assistant", content: [compaction, { type: "text", text: "Listed." }] },
        { role: "user", content: "And now?" },
      ],
    };
    expect(checkAnthropicRequest(request)).toEqual([]);
  });

  it.each([
    ["an id outside the pattern", unit("functions.ls:0"), /does not match/],
    [
      "two user messages in a row",
      {
        messages: [
          { role: "user", content: "a" },
          { role: "user", content: "b" },
        ],
      },
      /two user messages/,
    ],
    ["an assistant first", { messages: [{ role: "assistant", content: "a" }] }, /first message must be a user/],
    ["no messages", { messages: [] }, /non-empty array/],
    ["whitespace text", { messages: [{ role: "user", content: [{ type: "text", text: "\n" }] }] }, /non-whitespace/],
    ["an unknown key", { messages: [{ role: "user", content: "a", name: "x" }] }, /unknown key "name"/],
    [
      "five breakpoints",
      {
        messages: [
          { role: "user", content: Array.from({ length: 5 }, () => ({ type: "text", text: "a", cache_control: { type: "ephemeral" } })) },
        ],
      },
      /5 cache_control breakpoints/,
    ],
    [
      "a result not right after its call",
      {
        messages: [
          unit("t1").messages[0],
          unit("t1").messages[1],
          {
            role: "user",
            content: [
              { type: "text", text: "x" },
              { type: "tool_result", tool_use_id: "t1" },
            ],
          },
        ],
      },
      /no result right after/,
    ],
    [
      "a compaction block after the first block",
      { messages: [{ role: "assistant", content: [{ type: "text", text: "a" }, compaction] }] },
      /first block of the conversation/,
    ],
    ["a compaction block in a user message", { messages: [{ role: "user", content: [compaction] }] }, /belongs in an assistant/],
  ])("should reject %s", (_name, request, problem) => {
    expect(checkAnthropicRequest(request).join("\n")).toMatch(problem);
  });
});

describe("checkModelPrompt", () => {
  it("should reject an unknown part, an unknown key and an unanswered call", () => {
    expect(checkModelPrompt({ messages: [{ role: "assistant", content: [{ type: "thinking", thinking: "x" }] }] }).join()).toMatch(
      /takes no "thinking"/,
    );
    expect(checkModelPrompt({ messages: [{ role: "user", content: "x", metadata: {} }] }).join()).toMatch(/unknown key "metadata"/);
    expect(
      checkModelPrompt({
        messages: [{ role: "assistant", content: [{ type: "tool-call", toolCallId: "c", toolName: "f", input: {} }] }],
      }).join(),
    ).toMatch(/no result right after/);
  });
});

describe("checkGeminiRequest", () => {
  const user = (text: string) => ({ role: "user", parts: [{ text }] });
  const unit = (id?: string) => ({
    systemInstruction: { parts: [{ text: "Be brief." }] },
    contents: [
      user("ls"),
      { role: "model", parts: [{ functionCall: { ...(id === undefined ? {} : { id }), name: "ls", args: {} }, thoughtSignature: "c2ln" }] },
      { role: "user", parts: [{ functionResponse: { ...(id === undefined ? {} : { id }), name: "ls", response: { output: "a.txt" } } }] },
    ],
  });

  it("should pass a valid tool unit, with ids and without", () => {
    expect(checkGeminiRequest(unit("fc-1"))).toEqual([]);
    expect(checkGeminiRequest(unit())).toEqual([]);
  });

  it.each([
    ["a request with metadata", { ...unit(), metadata: {} }, /unknown key "metadata"/],
    ["two user turns in a row", { contents: [user("a"), user("b")] }, /two user turns in a row/],
    [
      "a conversation that opens with the model",
      { contents: [{ role: "model", parts: [{ text: "Hi" }] }, user("b")] },
      /first content must be a user turn/,
    ],
    ["a role Gemini does not have", { contents: [{ role: "assistant", parts: [{ text: "Hi" }] }] }, /expected "user" or "model"/],
    ["an empty text", { contents: [user(" ")] }, /empty text parameter/],
    [
      "a part with two data",
      { contents: [{ role: "user", parts: [{ text: "a", inlineData: { mimeType: "image/png", data: "" } }] }] },
      /exactly one of/,
    ],
    ["a call with no response", { contents: unit().contents.slice(0, 2) }, /has no response right after it/],
    [
      "a response to a call not made",
      { contents: [user("ls"), { role: "model", parts: [{ text: "Ok." }] }, unit().contents[2]] },
      /which the turn before did not call/,
    ],
    [
      "a response whose id is not the call's",
      { contents: [...unit("fc-1").contents.slice(0, 2), unit("fc-2").contents[2]] },
      /did not call/,
    ],
    [
      "an image in the system instruction",
      { systemInstruction: { parts: [{ inlineData: {} }] }, contents: [user("a")] },
      /unknown key "inlineData"/,
    ],
    ["an unknown part field", { contents: [{ role: "user", parts: [{ text: "a", metadata: {} }] }] }, /unknown key "metadata"/],
  ])("should reject %s", (_name, request, problem) => {
    expect(checkGeminiRequest(request).join("\n")).toMatch(problem);
  });
});
