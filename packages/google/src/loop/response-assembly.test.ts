import { GenerateContentResponse } from "@google/genai";
import { describe, expect, it } from "vitest";
import { responseAssembly } from "./response-assembly.js";

const chunk = (value: Record<string, unknown>) => Object.assign(new GenerateContentResponse(), value);
const parts = (list: unknown[], more: Record<string, unknown> = {}) =>
  chunk({ candidates: [{ content: { role: "model", parts: list }, index: 0, ...more }] });

describe("responseAssembly", () => {
  it("should join text pieces of one kind, keep calls whole, and take the signature, finish reason and usage of the last chunk", () => {
    const assembly = responseAssembly();
    for (const piece of [
      parts([{ text: "Let me ", thought: true }], {}),
      parts([{ text: "think 🤔", thought: true }]),
      chunk({
        candidates: [{ content: { role: "model", parts: [{ text: "I will " }] }, index: 0 }],
        usageMetadata: { promptTokenCount: 9 },
      }),
      parts([{ text: "read it." }, { text: "", thoughtSignature: "c2ln" }]),
      parts([{ functionCall: { name: "read_file", args: { path: "a.txt" } }, thoughtSignature: "Y2FsbA==" }]),
      parts([{ functionCall: { name: "read_file", args: { path: "b.txt" } } }], { finishReason: "STOP" }),
      chunk({ usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 20 }, modelVersion: "gemini-2.5-flash" }),
    ])
      assembly.add(piece);
    const response = assembly.finish();
    expect(response).toBeInstanceOf(GenerateContentResponse);
    expect(response).toMatchObject({
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 20 },
      modelVersion: "gemini-2.5-flash",
      candidates: [
        {
          finishReason: "STOP",
          content: {
            role: "model",
            parts: [
              { text: "Let me think 🤔", thought: true },
              { text: "I will read it.", thoughtSignature: "c2ln" },
              { functionCall: { name: "read_file", args: { path: "a.txt" } }, thoughtSignature: "Y2FsbA==" },
              { functionCall: { name: "read_file", args: { path: "b.txt" } } },
            ],
          },
        },
      ],
    });
    expect(response?.functionCalls).toHaveLength(2);
  });

  it("should call a stream with no finish reason short", () => {
    const assembly = responseAssembly();
    assembly.add(parts([{ text: "Half an ans" }]));
    expect(assembly.finish()).toBeUndefined();
  });
});
