import { expectValidOrRefused, malformedInputArbitrary, portableHistoryArbitrary } from "@ctxkit/conformance";
import { AdapterInputError } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromResponseInputItems } from "./from-response-input-items.js";
import { toResponseInputItems } from "./to-response-input-items.js";

const items = portableHistoryArbitrary({ maxSegments: 6 }).map((history) => toResponseInputItems(history));

describe("fromResponseInputItems on malformed input", () => {
  it("should give valid messages or throw AdapterInputError, for junk and for corrupted items", () => {
    fc.assert(
      fc.property(malformedInputArbitrary(items), (input) => {
        expectValidOrRefused(fromResponseInputItems, input);
      }),
      { numRuns: 300 },
    );
  });

  it.each<[string, unknown, number | undefined, string]>([
    ["a null item", [null], 0, ""],
    ["a function_call without call_id", [{ type: "function_call", name: "f", arguments: "{}" }], 0, "call_id"],
    ["non-string arguments", [{ type: "function_call", call_id: "c", name: "f", arguments: {} }], 0, "arguments"],
    ["a message without content", [{ role: "user" }], 0, "content"],
  ])("should name the item and field of %s", (_name, input, index, field) => {
    expect(() => fromResponseInputItems(input as never)).toThrow(AdapterInputError);
    try {
      fromResponseInputItems(input as never);
    } catch (error) {
      expect(error).toMatchObject({ adapter: "fromResponseInputItems", index, field });
    }
  });
});
