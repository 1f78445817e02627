import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeToolCallId, encodeToolCallId, isSafeToolCallId } from "./tool-call-id.js";

describe("encodeToolCallId", () => {
  it("should leave an id that already fits unchanged", () => {
    expect(encodeToolCallId("toolu_01AbC")).toBe("toolu_01AbC");
    expect(encodeToolCallId("call-1")).toBe("call-1");
  });

  it("should map functions.read_file:0 to a fitting id and back", () => {
    const encoded = encodeToolCallId("functions.read_file:0");
    expect(encoded).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(encoded).toBe("ctxkit_functions_002eread_005ffile_003a0");
    expect(decodeToolCallId(encoded)).toBe("functions.read_file:0");
  });

  it("should escape an id that starts with the prefix, so decoding stays exact", () => {
    expect(decodeToolCallId(encodeToolCallId("ctxkit_abc"))).toBe("ctxkit_abc");
  });

  it("should round-trip any non-empty id and always fit the pattern", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: "binary" }), (id) => {
        const encoded = encodeToolCallId(id);
        expect(isSafeToolCallId(encoded)).toBe(true);
        expect(decodeToolCallId(encoded)).toBe(id);
        expect(encodeToolCallId(id)).toBe(encoded);
      }),
    );
  });

  it("should keep distinct ids distinct", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (left, right) => {
        fc.pre(left !== right);
        expect(encodeToolCallId(left)).not.toBe(encodeToolCallId(right));
      }),
    );
  });
});
