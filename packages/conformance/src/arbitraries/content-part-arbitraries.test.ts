import { type Message, parseMessage } from "@ctxkit/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyWithNonTextPartsArbitrary, nonTextPartArbitrary } from "./content-part-arbitraries.js";

const partTypes = (message: Message): string[] =>
  Array.isArray(message.content) ? message.content.map((part) => part.type).filter((type) => type !== "text") : [];

describe("nonTextPartArbitrary", () => {
  it("should give every kind of part that is not text, each one a part parseMessage accepts", () => {
    const parts = fc.sample(nonTextPartArbitrary(), { numRuns: 300, seed: 42 });
    expect(new Set(parts.map((part) => part.type))).toEqual(
      new Set(["image_url", "input_audio", "file", "image", "document", "x-provider-widget"]),
    );
    for (const part of parts) parseMessage({ role: "user", content: [part] });
  });
});

describe("historyWithNonTextPartsArbitrary", () => {
  it("should only generate messages that parseMessage accepts", () => {
    fc.assert(
      fc.property(historyWithNonTextPartsArbitrary(), (history) => {
        history.forEach((message, index) => parseMessage(message, index));
      }),
    );
  });

  it("should put non-text parts of every kind in user messages and in tool results, often", () => {
    const messages = fc.sample(historyWithNonTextPartsArbitrary(), { numRuns: 200, seed: 42 }).flat();
    for (const role of ["user", "tool"] as const) {
      const ofRole = messages.filter((message) => message.role === role);
      const withParts = ofRole.filter((message) => partTypes(message).length > 0);
      expect(withParts.length / ofRole.length).toBeGreaterThan(0.3);
      expect(new Set(withParts.flatMap(partTypes))).toEqual(
        new Set(["image_url", "input_audio", "file", "image", "document", "x-provider-widget"]),
      );
    }
  });
});
