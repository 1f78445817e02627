import { expectValidOrRefused, malformedInputArbitrary, portableHistoryArbitrary } from "@ctxkit/conformance";
import { AdapterInputError } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromAgentInputItems, toAgentInputItems } from "./agent-items.js";

const items = portableHistoryArbitrary({ maxSegments: 6 }).map((history) => toAgentInputItems(history));

describe("fromAgentInputItems on malformed input", () => {
  it("should give valid messages or throw AdapterInputError, for junk and for corrupted items", () => {
    fc.assert(
      fc.property(malformedInputArbitrary(items), (input) => {
        expectValidOrRefused(fromAgentInputItems, input);
      }),
      { numRuns: 300 },
    );
  });

  it("should name the item and the field", () => {
    expect(() => fromAgentInputItems([{ type: "function_call", name: "f", arguments: "{}" } as never])).toThrow(
      expect.objectContaining({ constructor: AdapterInputError, index: 0, field: "callId" }),
    );
  });
});
