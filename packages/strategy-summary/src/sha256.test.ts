import { createHash } from "node:crypto";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { JavaScriptSha256, createSha256 } from "./sha256.js";

const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({ maxLength: 300 }),
);

describe("JavaScriptSha256", () => {
  it("should give Node's digest for any text fed in any number of updates", () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 12 }), (parts) => {
        const ours = new JavaScriptSha256();
        const nodes = createHash("sha256");
        for (const part of parts) {
          ours.update(part);
          nodes.update(part);
        }
        expect(ours.digest("base64url")).toBe(nodes.digest("base64url"));
      }),
      { numRuns: 300 },
    );
  });

  it("should digest a copy as the original, and leave the original to go on", () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const ours = new JavaScriptSha256().update(before);
        const copy = ours.copy();
        ours.update(after);
        expect(copy.digest("base64url")).toBe(createHash("sha256").update(before).digest("base64url"));
        expect(ours.digest("base64url")).toBe(createHash("sha256").update(before).update(after).digest("base64url"));
      }),
      { numRuns: 200 },
    );
  });

  it("should give the known digest of a text over one block", () => {
    // FIPS 180-2's two-block example.
    const message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    expect(new JavaScriptSha256().update(message).digest("base64url")).toBe("JI1qYdIGOLjlwCaTDD5gOaM85Flk_yFn9uzt1BnbBsE");
  });
});

describe("createSha256", () => {
  const { getBuiltinModule } = process;
  afterEach(() => {
    process.getBuiltinModule = getBuiltinModule;
  });

  it("should use the JavaScript hash where the runtime has no Node modules, as an edge runtime has not", () => {
    Reflect.deleteProperty(process, "getBuiltinModule");
    const hash = createSha256();
    expect(hash).toBeInstanceOf(JavaScriptSha256);
    expect(hash.update("héllo 🎉").digest("base64url")).toBe(createHash("sha256").update("héllo 🎉").digest("base64url"));
  });

  it("should use Node's hash in Node", () => {
    expect(createSha256()).not.toBeInstanceOf(JavaScriptSha256);
  });
});
