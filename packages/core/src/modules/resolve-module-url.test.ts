import { describe, expect, it } from "vitest";
import { isPathSpecifier } from "./resolve-module-url.js";

describe("isPathSpecifier", () => {
  it("should treat relative paths, absolute paths and file URLs as paths", () => {
    for (const specifier of [".", "..", "./module.js", "../module", "/abs/module.js", "file:///abs/module.js"]) {
      expect(isPathSpecifier(specifier), specifier).toBe(true);
    }
  });

  it("should treat Windows drive and UNC paths as paths on any platform, without node:path", () => {
    for (const specifier of ["C:\\modules\\module.js", "c:/modules/module.js", "\\\\server\\share\\module.js"]) {
      expect(isPathSpecifier(specifier), specifier).toBe(true);
    }
  });

  it("should treat package names, scoped or with a subpath, as packages", () => {
    for (const specifier of ["context-simple", "@ctxkit/context-simple", "@ctxkit/core/testing", "pkg/sub"]) {
      expect(isPathSpecifier(specifier), specifier).toBe(false);
    }
  });
});
