import { describe, expect, it } from "vitest";
import { assistant, call, result, user } from "../test/messages.js";
import { renderTranscript, unwrapSummary } from "./render-transcript.js";

describe("renderTranscript", () => {
  it("should write each message as a labelled block, calls with their arguments, results with their id", () => {
    const text = renderTranscript([user("go"), call("Read", ["c1"], { file_path: "a.ts" }), result("c1", "1 line"), assistant("done")]);
    expect(text).toBe('[user]\ngo\n[tool call c1] Read {"file_path":"a.ts"}\n[tool result c1]\n1 line\n[assistant]\ndone');
  });

  it("should show an image part as [image]", () => {
    expect(renderTranscript([{ role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "https://x/y.png" } }] }])).toBe("[user]\nlook\n[image]");
  });
});

describe("unwrapSummary", () => {
  it("should remove <summary> tags around the whole answer only", () => {
    expect(unwrapSummary("  <summary>\nText\n</summary>\n")).toBe("Text");
    expect(unwrapSummary("Text with <summary>inside</summary>")).toBe("Text with <summary>inside</summary>");
  });
});
