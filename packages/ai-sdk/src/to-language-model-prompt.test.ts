import { describe, expect, it } from "vitest";
import { toLanguageModelPrompt } from "./to-language-model-prompt.js";

describe("toLanguageModelPrompt", () => {
  it("should give contents as part arrays, images as files, URLs as URL objects and data URLs as base64", () => {
    const prompt = toLanguageModelPrompt([
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [
          { type: "image_url", image_url: { url: "https://x.test/a.png" } },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
      { role: "assistant", content: "hi" },
    ]);
    expect(prompt).toEqual([
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [
          { type: "file", data: new URL("https://x.test/a.png"), mediaType: "image/*" },
          { type: "file", data: "AAAA", mediaType: "image/png" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "hi" }] },
    ]);
  });
});
