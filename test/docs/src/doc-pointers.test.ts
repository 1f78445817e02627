// The guides, the architecture notes and the READMEs cannot point at what is gone: every file they name exists,
// every name listed after a file (`[file](path): \`name\``) is in it, and every `` `name` from `@ctxkit/x` `` is exported there.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { entrySource, exportedNames, filePointers, namesFromEntries, namesInFiles } from "./doc-pointers.js";
import { architectureDocuments, contributingDocuments, readmes, root } from "./markdown-documents.js";

/** The paths git ignores: what a run writes (`bench/results/latest.md`), which a document may point to. */
function ignoredByGit(paths: readonly string[]): Set<string> {
  if (paths.length === 0) return new Set();
  try {
    return new Set(execFileSync("git", ["check-ignore", ...paths], { cwd: root, encoding: "utf8" }).split("\n"));
  } catch {
    return new Set(); // exit code 1: none is ignored
  }
}

const WORD = (name: string) => new RegExp(`(?<![\\w$])${name.replaceAll("$", "\\$")}(?![\\w$])`);

for (const document of [...contributingDocuments(), ...architectureDocuments(), ...readmes()]) {
  const markdown = readFileSync(join(root, document), "utf8");
  describe(`${document} points only at what exists`, () => {
    it("should name only files that exist", () => {
      const absent = filePointers(document, markdown).filter(({ path }) => !existsSync(join(root, path)));
      const written = ignoredByGit(absent.map(({ path }) => path));
      const missing = absent.filter(({ path }) => !written.has(path));
      expect(missing.map(({ line, path }) => `line ${line}: ${path}`)).toEqual([]);
    });

    it("should list after a file only names that file holds", () => {
      const absent = namesInFiles(document, markdown).flatMap(({ line, path, names }) => {
        const file = join(root, path);
        if (!existsSync(file)) return [`line ${line}: ${path} does not exist`];
        const text = readFileSync(file, "utf8");
        return names.filter((name) => !WORD(name).test(text)).map((name) => `line ${line}: ${path} has no \`${name}\``);
      });
      expect(absent).toEqual([]);
    });

    it("should name from a package entry only what it exports", () => {
      const absent = namesFromEntries(markdown).flatMap(({ line, entry, names }) => {
        const source = entrySource(root, entry);
        if (source === undefined) return [`line ${line}: ${entry} is not a workspace package entry`];
        const exported = exportedNames(source);
        return names.filter((name) => !exported.has(name)).map((name) => `line ${line}: ${entry} does not export \`${name}\``);
      });
      expect(absent).toEqual([]);
    });
  });
}

describe("the pointer conventions", () => {
  it("should find links and repository paths, and skip placeholders", () => {
    const markdown = "See [the store](../packages/core/src/a.ts) and `packages/core/src/b.ts`, not `packages/context-<backend>`.";
    expect(filePointers("contributing/guide.md", markdown).map(({ path }) => path)).toEqual([
      "packages/core/src/a.ts",
      "packages/core/src/b.ts",
    ]);
  });

  it("should read the names listed after a file, up to the end of the sentence", () => {
    const markdown = "1. [`view-draft.ts`](../view-draft.ts): `isProtectedEntry` (invariant 5), `createViewDraft`. Then `other`.";
    expect(namesInFiles("contributing/guide.md", markdown)).toEqual([
      { line: 1, path: "view-draft.ts", names: ["isProtectedEntry", "createViewDraft"] },
    ]);
  });

  it("should read runs of names from an entry, calls included", () => {
    const markdown = "Use `createContextManager({ store })`, `parseConfig` and `defineStoreModule` from `@ctxkit/core/kit`.";
    expect(namesFromEntries(markdown)).toEqual([
      { line: 1, entry: "@ctxkit/core/kit", names: ["createContextManager", "parseConfig", "defineStoreModule"] },
    ]);
  });

  it("should find the names an entry exports, through re-exports and destructuring", () => {
    const kit = exportedNames(entrySource(root, "@ctxkit/core/kit")!);
    expect(kit.has("parseDecodedMessage")).toBe(true);
    expect(kit.has("MessageStore")).toBe(true);
    expect(kit.has("createContextManager")).toBe(false);
  });
});
