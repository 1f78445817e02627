import { expectValidOrRefused, historyArbitrary, malformedInputArbitrary } from "@ctxkit/conformance";
import { toProviderMessages } from "@ctxkit/core";
import { AdapterInputError } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromChatCompletionMessages } from "./from-chat-completion-messages.js";

const chatMessages = historyArbitrary({ hugeOutputs: false, maxSegments: 6 }).map((history) => toProviderMessages(history));

describe("fromChatCompletionMessages on malformed input", () => {
  it("should give valid messages or throw AdapterInputError, for junk and for corrupted messages", () => {
    fc.assert(
      fc.property(malformedInputArbitrary(chatMessages), (input) => {
        expectValidOrRefused(fromChatCompletionMessages, input);
      }),
      { numRuns: 300 },
    );
  });

  it.each<[string, unknown, number | undefined, string]>([
    ["a null entry", [{ role: "user", content: "x" }, null], 1, ""],
    ["a message without content", [{ role: "user" }], 0, "content"],
    ["an unknown role", [{ role: "robot", content: "x" }], 0, "role"],
    [
      "a tool call without id",
      [{ role: "assistant", tool_calls: [{ type: "function", function: { name: "f", arguments: "{}" } }] }],
      0,
      "tool_calls.0.id",
    ],
    [
      "non-string arguments",
      [{ role: "assistant", tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: { a: 1 } } }] }],
      0,
      "tool_calls.0.function.arguments",
    ],
    ["a tool message without tool_call_id", [{ role: "tool", content: "x" }], 0, "tool_call_id"],
  ])("should name the entry and field of %s", (_name, input, index, field) => {
    expect(() => fromChatCompletionMessages(input as never)).toThrow(AdapterInputError);
    try {
      fromChatCompletionMessages(input as never);
    } catch (error) {
      expect(error).toMatchObject({ adapter: "fromChatCompletionMessages", index, field });
    }
  });
});
