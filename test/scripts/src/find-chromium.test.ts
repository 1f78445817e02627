// pnpm test hands the browser tests the Chromium it finds, and installs none.
import { describe, expect, it } from "vitest";
import { findChromium } from "../../../scripts/test.mjs";

describe("findChromium", () => {
  it("should use CTXKIT_CHROMIUM_PATH when it is set, and say whether the file is there", () => {
    const seen: string[] = [];
    const found = findChromium({
      env: { CTXKIT_CHROMIUM_PATH: "/opt/chromium/chrome" },
      exists: (path) => (seen.push(String(path)), true),
    });
    expect(found).toEqual({ path: "/opt/chromium/chrome", found: true });
    expect(seen).toEqual(["/opt/chromium/chrome"]);
  });

  it("should fall back to Debian's package's path, found or not", () => {
    expect(findChromium({ env: {}, exists: () => false })).toEqual({ path: "/usr/bin/chromium", found: false });
  });
});
