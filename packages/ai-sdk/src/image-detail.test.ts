import { describe, expect, it } from "vitest";
import { fromModelMessages } from "./from-model-messages.js";
import { toModelMessages } from "./to-model-messages.js";

describe("image detail", () => {
  it("should carry OpenAI's detail as the OpenAI provider's imageDetail option, both ways", () => {
    const { messages } = toModelMessages([
      { role: "user", content: [{ type: "image_url", image_url: { url: "https://x.test/a.png", detail: "low" } }] },
    ]);
    expect(messages[0]!.content).toEqual([
      { type: "image", image: "https://x.test/a.png", providerOptions: { openai: { imageDetail: "low" } } },
    ]);
    expect(fromModelMessages(messages)[0]!.content).toEqual([
      { type: "image_url", image_url: { url: "https://x.test/a.png", detail: "low" } },
    ]);
  });

  it("should keep the other provider options where they were", () => {
    const [message] = fromModelMessages([
      {
        role: "user",
        content: [
          {
            type: "image",
            image: "https://x.test/a.png",
            providerOptions: { openai: { imageDetail: "high", other: 1 }, anthropic: { x: true } },
          },
        ],
      },
    ]);
    expect(message!.content).toEqual([
      {
        type: "image_url",
        image_url: { url: "https://x.test/a.png", detail: "high" },
        providerOptions: { openai: { other: 1 }, anthropic: { x: true } },
      },
    ]);
  });
});
