// scripts/sync-package-manifests.mjs is a step of every guide that copies a manifest: what it writes must name this folder.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { manifestProblems, syncManifest } from "../../../scripts/manifest-problems.mjs";
import { root } from "./markdown-documents.js";

const redis = JSON.parse(readFileSync(join(root, "packages/context-redis/package.json"), "utf8"));

describe("syncManifest", () => {
  it("should name the new folder in a manifest copied from another package (regression)", () => {
    const synced = syncManifest("context-sqlite", { ...redis, name: "@ctxkit/context-sqlite" });
    expect(synced.repository.directory).toBe("packages/context-sqlite");
    expect(synced.homepage).toBe("https://github.com/ctxkit/ctxkit/tree/main/packages/context-sqlite#readme");
    // What the pack lint checks of these fields is then clean, as its message promises (workspace ranges aside: pnpm packs those).
    const packed = { ...synced, exports: synced.publishConfig.exports, dependencies: {} };
    expect(manifestProblems("context-sqlite", synced, packed)).toEqual([]);
  });

  it("should keep a homepage of the package's own, the keywords and the field order", () => {
    const synced = syncManifest("context-redis", { ...redis, homepage: "https://example.org/redis" });
    expect(synced.homepage).toBe("https://example.org/redis");
    expect(synced.keywords).toEqual(redis.keywords);
    expect(Object.keys(synced)).toEqual(Object.keys(redis));
  });

  it("should leave a package's manifest as it is once synced", () => {
    expect(syncManifest("context-redis", redis)).toEqual(redis);
  });
});
