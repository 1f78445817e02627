import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolvePackageEntry } from "./package-entry.js";

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "ctxkit-package-entry-"));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function writeManifest(manifest: object): Promise<void> {
  await writeFile(path.join(folder, "package.json"), JSON.stringify(manifest));
}

describe("resolvePackageEntry exports", () => {
  it("should take a string exports field", async () => {
    await writeManifest({ exports: "./dist/index.js", main: "./ignored.js" });
    expect(await resolvePackageEntry(folder)).toBe(path.join(folder, "dist/index.js"));
  });

  it("should follow the first matching import condition of exports['.'], skipping types and require", async () => {
    await writeManifest({ exports: { ".": { types: "./x.d.ts", require: "./x.cjs", import: "./x.mjs", default: "./x.js" } } });
    expect(await resolvePackageEntry(folder)).toBe(path.join(folder, "x.mjs"));
  });

  it("should follow nested conditions and fallback arrays", async () => {
    await writeManifest({ exports: { node: [{ require: "./a.cjs" }, { import: "./b.js" }] } });
    expect(await resolvePackageEntry(folder)).toBe(path.join(folder, "b.js"));
  });

  it("should resolve a subpath from the exports map", async () => {
    await writeManifest({ exports: { ".": "./main.js", "./strategy": { default: "./strategy.js" } } });
    expect(await resolvePackageEntry(folder, "./strategy")).toBe(path.join(folder, "strategy.js"));
  });

  it("should throw when exports has no entry for import", async () => {
    await writeManifest({ exports: { ".": { require: "./x.cjs" } } });
    await expect(resolvePackageEntry(folder)).rejects.toThrow(/does not export "\."/);
  });
});

describe("resolvePackageEntry fallbacks", () => {
  it("should use main when there is no exports field", async () => {
    await writeManifest({ main: "lib/main.js" });
    expect(await resolvePackageEntry(folder)).toBe(path.join(folder, "lib/main.js"));
  });

  it("should use index.js without main, or without any package.json", async () => {
    expect(await resolvePackageEntry(folder)).toBe(path.join(folder, "index.js"));
    await writeManifest({ name: "no-entry" });
    expect(await resolvePackageEntry(folder)).toBe(path.join(folder, "index.js"));
  });
});
