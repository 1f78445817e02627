import { ContextValidationError, type Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { toGeminiContents } from "./to-gemini-contents.js";

const call = (id: string, name = "read_file") => ({ id, type: "function" as const, function: { name, arguments: '{"path":"a.txt"}' } });

describe("toGeminiContents", () => {
  it("should keep instructions apart, answer each call in the next user turn and merge a user message into it", () => {
    const view: Message[] = [
      { role: "system", content: "Be brief.", metadata: { pinned: true } },
      { role: "developer", content: "Use tools." },
      { role: "user", content: "Read a.txt." },
      { role: "assistant", content: "Reading.", tool_calls: [call("functions.read_file:0")] },
      { role: "tool", tool_call_id: "functions.read_file:0", content: "hello" },
      { role: "user", content: "And then?" },
    ];
    expect(toGeminiContents(view)).toEqual({
      systemInstruction: { parts: [{ text: "Be brief." }, { text: "Use tools." }] },
      contents: [
        { role: "user", parts: [{ text: "Read a.txt." }] },
        {
          role: "model",
          parts: [{ text: "Reading." }, { functionCall: { id: "functions.read_file:0", name: "read_file", args: { path: "a.txt" } } }],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { id: "functions.read_file:0", name: "read_file", response: { output: "hello" } } },
            { text: "And then?" },
          ],
        },
      ],
    });
  });

  it("should send images as inlineData and fileData", () => {
    const { contents } = toGeminiContents([
      {
        role: "user",
        content: [
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
          { type: "image_url", image_url: { url: "https://example.com/a.JPG?size=2" } },
        ],
      },
    ]);
    expect(contents[0]!.parts).toEqual([
      { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
      { fileData: { mimeType: "image/jpeg", fileUri: "https://example.com/a.JPG?size=2" } },
    ]);
  });

  it("should leave other providers' reasoning out and send Gemini's back with its signatures", () => {
    const thought = { type: "gemini_thought", part: { text: "Hmm.", thought: true, thoughtSignature: "c2ln" } };
    const { contents } = toGeminiContents([
      { role: "user", content: "Hi" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Anthropic's.", signature: "x" },
          thought,
          { type: "gemini_thought_signature", thoughtSignature: "dGV4dA==" },
          { type: "text", text: "Calling." },
          { type: "gemini_thought_signature", thoughtSignature: "Y2FsbA==", callId: "gemini-call-0-read_file" },
        ],
        tool_calls: [call("gemini-call-0-read_file")],
      },
    ]);
    expect(contents[1]!.parts).toEqual([
      thought.part,
      { text: "Calling.", thoughtSignature: "dGV4dA==" },
      { functionCall: { name: "read_file", args: { path: "a.txt" } }, thoughtSignature: "Y2FsbA==" },
    ]);
  });

  it("should send thoughts and signatures to the model that made them only, given a target model", () => {
    const view: Message[] = [
      { role: "user", content: "Hi" },
      {
        role: "assistant",
        content: [
          { type: "gemini_thought", part: { text: "Hmm.", thought: true, thoughtSignature: "c2ln" } },
          { type: "gemini_thought_signature", thoughtSignature: "dGV4dA==" },
          { type: "text", text: "Hello." },
        ],
        metadata: { provenance: { provider: "google", model: "gemini-2.5-flash" } },
      },
    ];
    expect(toGeminiContents(view, { targetModel: "models/gemini-2.5-flash" }).contents[1]!.parts).toHaveLength(2);
    expect(toGeminiContents(view, { targetModel: "gemini-3-pro-preview" }).contents[1]!.parts).toEqual([{ text: "Hello." }]);
    expect(toGeminiContents(view).contents[1]!.parts).toHaveLength(2);
  });

  it("should give the first unsigned call of each step of the current turn the signature asked for, and no other", () => {
    const view: Message[] = [
      { role: "user", content: "Read a.txt." },
      { role: "assistant", content: null, tool_calls: [call("c1"), call("c2")] },
      { role: "tool", tool_call_id: "c1", content: "A" },
      { role: "tool", tool_call_id: "c2", content: "B" },
      { role: "assistant", content: null, tool_calls: [call("c3")] },
    ];
    const signed = toGeminiContents(
      [{ role: "assistant", content: null, tool_calls: [call("c0")] }, { role: "tool", tool_call_id: "c0", content: "0" }, ...view],
      {
        unsignedCallSignature: "skip_thought_signature_validator",
      },
    );
    const signatures = signed.contents.flatMap((content) => content.parts!.map((part) => part.thoughtSignature));
    // c0 is in an earlier turn; c1 opens a step of the current one, c2 follows it in that step, c3 opens the next.
    expect(signatures).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      "skip_thought_signature_validator",
      undefined,
      undefined,
      undefined,
      "skip_thought_signature_validator",
    ]);
    expect(toGeminiContents(view).contents.flatMap((content) => content.parts!.map((part) => part.thoughtSignature))).not.toContain(
      "skip_thought_signature_validator",
    );
  });

  it("should open with a user turn when the view opens with the model", () => {
    expect(toGeminiContents([{ role: "assistant", content: "Earlier answer." }]).contents[0]).toEqual({
      role: "user",
      parts: [{ text: "(earlier messages left out)" }],
    });
  });

  it.each([
    ["an audio part", { role: "user", content: [{ type: "input_audio", input_audio: { data: "", format: "wav" } }] }],
    ["an image URL that is neither data nor http", { role: "user", content: [{ type: "image_url", image_url: { url: "file:///a.png" } }] }],
    ["an image in a system instruction", { role: "system", content: [{ type: "image_url", image_url: { url: "https://x/a.png" } }] }],
  ])("should refuse %s with ContextValidationError naming the part", (_case, message) => {
    expect(() => toGeminiContents([message as Message, { role: "user", content: "Hi" }])).toThrow(ContextValidationError);
    expect(() => toGeminiContents([message as Message, { role: "user", content: "Hi" }])).toThrow(/Gemini takes no/);
  });

  it("should refuse an image in a tool result and a view with nothing to send", () => {
    const result: Message[] = [
      { role: "assistant", content: null, tool_calls: [call("c1")] },
      { role: "tool", tool_call_id: "c1", content: [{ type: "image_url", image_url: { url: "https://x/a.png" } }] },
    ];
    expect(() => toGeminiContents(result)).toThrow(/function response/);
    expect(() =>
      toGeminiContents([
        { role: "system", content: "Be brief." },
        { role: "user", content: "  " },
      ]),
    ).toThrow(ContextValidationError);
  });
});
