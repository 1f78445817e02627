import { expectValidOrRefused, malformedInputArbitrary } from "@ctxkit/conformance";
import { AdapterInputError } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { modelMessagesArbitrary } from "../test/__fixtures__/model-message-arbitraries.js";
import { fromModelMessages } from "./from-model-messages.js";

describe("fromModelMessages on malformed input", () => {
  it("should give valid messages or throw AdapterInputError, for junk and for corrupted messages", () => {
    fc.assert(
      fc.property(malformedInputArbitrary(modelMessagesArbitrary), (input) => {
        expectValidOrRefused(fromModelMessages, input);
      }),
      { numRuns: 300 },
    );
  });

  it.each<[string, unknown, number | undefined, string]>([
    ["a null entry", [null], 0, ""],
    ["an unknown role", [{ role: "robot", content: "x" }], 0, "role"],
    ["a message without content", [{ role: "user" }], 0, "content"],
    [
      "a tool call without id",
      [{ role: "assistant", content: [{ type: "tool-call", toolName: "f", input: {} }] }],
      0,
      "content.0.toolCallId",
    ],
    ["an empty tool message", [{ role: "tool", content: [] }], 0, "content"],
    [
      "a result without output",
      [{ role: "tool", content: [{ type: "tool-result", toolCallId: "c", toolName: "f" }] }],
      0,
      "content.0.output",
    ],
  ])("should name the entry and field of %s", (_name, input, index, field) => {
    expect(() => fromModelMessages(input as never)).toThrow(AdapterInputError);
    try {
      fromModelMessages(input as never);
    } catch (error) {
      expect(error).toMatchObject({ adapter: "fromModelMessages", index, field });
    }
  });
});
