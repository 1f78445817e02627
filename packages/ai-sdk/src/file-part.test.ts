import { describe, expect, it } from "vitest";
import { fromFilePart, toFilePart } from "./file-part.js";
import { toModelMessages } from "./to-model-messages.js";

describe("file parts", () => {
  it("should hold inline data as OpenAI does, a data URL in file_data, and give it back as base64", () => {
    const part = fromFilePart({ type: "file", data: "JVBERi0=", mediaType: "application/pdf", filename: "a.pdf" });
    expect(part).toEqual({ type: "file", file: { file_data: "data:application/pdf;base64,JVBERi0=", filename: "a.pdf" } });
    expect(toFilePart(part)).toEqual({ type: "file", data: "JVBERi0=", mediaType: "application/pdf", filename: "a.pdf" });
  });

  it("should keep a URL and its media type", () => {
    const part = fromFilePart({ type: "file", data: new URL("https://x.test/a.pdf"), mediaType: "application/pdf" });
    expect(part).toEqual({ type: "file", file: { file_data: "https://x.test/a.pdf" }, mediaType: "application/pdf" });
    expect(toFilePart(part)).toEqual({ type: "file", data: "https://x.test/a.pdf", mediaType: "application/pdf" });
  });

  it("should convert an OpenAI file part, and reject one that only names a file id", () => {
    const { messages } = toModelMessages([
      { role: "user", content: [{ type: "file", file: { file_data: "data:text/plain;base64,aGk=", filename: "hi.txt" } }] },
    ]);
    expect(messages[0]!.content).toEqual([{ type: "file", data: "aGk=", mediaType: "text/plain", filename: "hi.txt" }]);
    expect(() => toModelMessages([{ role: "user", content: [{ type: "file", file: { file_id: "file-123" } }] }])).toThrow(/file_id/);
  });

  it("should send an OpenAI refusal as text", () => {
    const { messages } = toModelMessages([{ role: "assistant", content: [{ type: "refusal", refusal: "I can't help with that." }] }]);
    expect(messages[0]!.content).toEqual([{ type: "text", text: "I can't help with that." }]);
  });
});
