import { AdapterInputError } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { fromGeminiContents } from "./from-gemini-contents.js";

describe("fromGeminiContents", () => {
  it("should give calls with no id the same stable ids their responses get, by place among calls of one name", () => {
    const contents = [
      { role: "user", parts: [{ text: "Read a and b, and grep." }] },
      {
        role: "model",
        parts: [
          { functionCall: { name: "read_file", args: { path: "a" } } },
          { functionCall: { name: "grep", args: { pattern: "x" } } },
          { functionCall: { name: "read_file", args: { path: "b" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "grep", response: { output: "no match" } } },
          { functionResponse: { name: "read_file", response: { output: "A" } } },
          { functionResponse: { name: "read_file", response: { error: "ENOENT" } } },
        ],
      },
    ];
    const messages = fromGeminiContents(contents);
    expect(messages[1]).toMatchObject({
      tool_calls: [{ id: "gemini-call-0-read_file" }, { id: "gemini-call-0-grep" }, { id: "gemini-call-1-read_file" }],
    });
    expect(messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "gemini-call-0-grep", name: "grep", content: "no match" },
      { role: "tool", tool_call_id: "gemini-call-0-read_file", name: "read_file", content: "A" },
      { role: "tool", tool_call_id: "gemini-call-1-read_file", name: "read_file", content: "ENOENT", is_error: true },
    ]);
    expect(fromGeminiContents(contents)).toEqual(messages);
  });

  it('should take an empty id as none, as createPartFromFunctionResponse(call.id ?? "", …) writes it', () => {
    const [, , result] = fromGeminiContents([
      { role: "user", parts: [{ text: "Go." }] },
      { role: "model", parts: [{ functionCall: { name: "run", args: {} } }] },
      { role: "user", parts: [{ functionResponse: { id: "", name: "run", response: { output: "ok" } } }] },
    ]);
    expect(result).toMatchObject({ tool_call_id: "gemini-call-0-run" });
  });

  it("should keep the ids Gemini gave", () => {
    const [, call, result] = fromGeminiContents([
      { role: "user", parts: [{ text: "Go." }] },
      { role: "model", parts: [{ functionCall: { id: "fc-7", name: "run", args: {} } }] },
      { role: "user", parts: [{ functionResponse: { id: "fc-7", name: "run", response: { output: "ok" } } }] },
    ]);
    expect(call).toMatchObject({ content: null, tool_calls: [{ id: "fc-7", function: { name: "run", arguments: "{}" } }] });
    expect(result).toMatchObject({ tool_call_id: "fc-7" });
  });

  it("should put the system instruction first, as one system message", () => {
    expect(fromGeminiContents([{ role: "user", parts: [{ text: "Hi" }] }], { systemInstruction: "Be brief." })[0]).toEqual({
      role: "system",
      content: "Be brief.",
    });
    expect(
      fromGeminiContents([{ role: "user", parts: [{ text: "Hi" }] }], { systemInstruction: { parts: [{ text: "A" }, { text: "B" }] } })[0],
    ).toEqual({
      role: "system",
      content: [
        { type: "text", text: "A" },
        { type: "text", text: "B" },
      ],
    });
  });

  it.each<[string, unknown[], RegExp, unknown?]>([
    ["a role Gemini does not have", [{ role: "assistant", parts: [{ text: "x" }] }], /role/],
    ["a content with no parts", [{ role: "user" }], /parts/],
    ["a part with two data fields", [{ role: "user", parts: [{ text: "x", functionCall: { name: "f" } }] }], /one of/],
    ["a function call in a user turn", [{ role: "user", parts: [{ functionCall: { name: "f", args: {} } }] }], /model content/],
    ["a function call with no name", [{ role: "model", parts: [{ functionCall: { args: {} } }] }], /functionCall\.name/],
    ["arguments that are no object", [{ role: "model", parts: [{ functionCall: { name: "f", args: "x" } }] }], /functionCall\.args/],
    [
      "a system instruction with an image",
      [],
      /text parts only/,
      { systemInstruction: { parts: [{ inlineData: { data: "", mimeType: "image/png" } }] } },
    ],
  ])("should refuse %s with AdapterInputError naming the field", (_case, contents, field, options = {}) => {
    const convert = () => fromGeminiContents(contents as never, options as never);
    expect(convert).toThrow(AdapterInputError);
    expect(convert).toThrow(field);
  });
});
