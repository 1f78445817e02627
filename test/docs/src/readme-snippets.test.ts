// Every TypeScript snippet of every README and contributing guide runs against the built packages, so the docs
// cannot rot. A snippet that shows a repository file (`<!-- file: … -->`) is compared instead (guide-files.test.ts).
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { extractSnippets } from "./extract-snippets.js";
import { contributingDocuments, readmes, root } from "./markdown-documents.js";

const run = promisify(execFile);
const snippetFolder = fileURLToPath(new URL("../.snippets/", import.meta.url));
// tsx's loader, found from here: a snippet runs in a temp folder, where `--import tsx` would not resolve.
const tsxLoader = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/loader.mjs")).href;

rmSync(snippetFolder, { recursive: true, force: true });
mkdirSync(snippetFolder, { recursive: true });
afterAll(() => rmSync(snippetFolder, { recursive: true, force: true }));

for (const name of [...readmes(), ...contributingDocuments()]) {
  const snippets = extractSnippets(readFileSync(join(root, name), "utf8")).filter((snippet) => snippet.file === undefined);
  if (snippets.length === 0) continue;
  describe(name, () => {
    for (const snippet of snippets) {
      if (snippet.notRun !== undefined) {
        it.skip(`line ${snippet.line}: not run (${snippet.notRun})`, () => {});
        continue;
      }
      it(`should run the snippet at line ${snippet.line}`, async () => {
        const file = join(snippetFolder, `${name.replaceAll(/[^A-Za-z0-9]+/g, "-")}-${snippet.line}.mts`);
        writeFileSync(file, `${snippet.code}\n`);
        // A fresh working folder per snippet, inside this package as a user's project folder would be (a mount
        // plan finds packages from it), and ignored by git: what a snippet writes (a journal, say) stays there.
        const cwd = mkdtempSync(join(snippetFolder, "work-"));
        const result = await run(process.execPath, ["--import", tsxLoader, file], {
          cwd,
          env: { ...process.env, NODE_OPTIONS: "" },
          timeout: 60_000,
        }).catch((error: { stderr?: string; message: string }) => ({ failed: error.stderr || error.message }));
        expect("failed" in result ? result.failed : "").toBe("");
      });
    }
  });
}
