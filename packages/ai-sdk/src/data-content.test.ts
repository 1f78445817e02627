import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toDataString } from "./data-content.js";

describe("toDataString", () => {
  describe("bytes", () => {
    it("should give Node's base64 for any bytes, without Buffer", () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 100_000 }), (bytes) => {
          const expected = Buffer.from(bytes).toString("base64");
          expect(toDataString(bytes)).toBe(expected);
          expect(toDataString(bytes.slice().buffer)).toBe(expected);
        }),
        { numRuns: 50 },
      );
    });
  });

  describe("URLs and strings", () => {
    it("should keep a URL's href and a string as they are", () => {
      expect(toDataString(new URL("https://example.com/a.png"))).toBe("https://example.com/a.png");
      expect(toDataString("aGVsbG8=")).toBe("aGVsbG8=");
    });
  });
});
