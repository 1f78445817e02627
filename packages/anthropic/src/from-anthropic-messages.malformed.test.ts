import { expectValidOrRefused, malformedInputArbitrary, portableHistoryArbitrary } from "@ctxkit/conformance";
import { AdapterInputError, textOfContent } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromAnthropicMessages } from "./from-anthropic-messages.js";
import { toAnthropicMessages } from "./to-anthropic-messages.js";

// Well-formed Anthropic messages, from ctxkit histories with images only where Anthropic takes them.
const anthropicMessages = portableHistoryArbitrary({ maxSegments: 6 })
  .filter((history) => history.some((message) => message.role === "user" && textOfContent(message.content).trim() !== ""))
  .map((history) => toAnthropicMessages(history, { cache: false }).messages);

describe("fromAnthropicMessages on malformed input", () => {
  it("should give valid messages or throw AdapterInputError, for junk and for corrupted messages", () => {
    fc.assert(
      fc.property(malformedInputArbitrary(anthropicMessages), (input) => {
        expectValidOrRefused(fromAnthropicMessages, input);
      }),
      { numRuns: 300 },
    );
  });

  it.each<[string, unknown, number | undefined, string]>([
    ["a null entry", [null], 0, ""],
    ["a non-object", ["hello"], 0, ""],
    ["a message without content", [{ role: "user" }], 0, "content"],
    ["an unknown role", [{ role: "system", content: "x" }], 0, "role"],
    ["a tool_use without id", [{ role: "assistant", content: [{ type: "tool_use", name: "f", input: {} }] }], 0, "content.0.id"],
    [
      "a text block without text",
      [
        { role: "user", content: "x" },
        { role: "user", content: [{ type: "text" }] },
      ],
      1,
      "content.0.text",
    ],
    [
      "a tool_result in an assistant message",
      [{ role: "assistant", content: [{ type: "tool_result", tool_use_id: "a" }] }],
      0,
      "content.0.type",
    ],
    ["not a list", { role: "user", content: "x" }, undefined, "messages"],
  ])("should name the entry and field of %s", (_name, input, index, field) => {
    const error = (() => {
      try {
        fromAnthropicMessages(input as never);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AdapterInputError);
    expect(error).toMatchObject({ code: "CONTEXT_ADAPTER_INPUT", adapter: "fromAnthropicMessages", index, field });
    expect((error as Error).message).toMatch(/Pass the messages as the Anthropic SDK types them/);
  });
});
