// A code block after a `<!-- file: path -->` marker in CONTRIBUTING.md or a contributing guide shows that file:
// it must equal the file byte for byte, so a guide cannot drift from the code its suite runs. (Their links and the
// names they list: doc-pointers.test.ts.)
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countFileMarkers, extractCodeBlocks } from "./extract-snippets.js";
import { contributingDocuments, root } from "./markdown-documents.js";

for (const document of contributingDocuments()) {
  const markdown = readFileSync(join(root, document), "utf8");
  const blocks = extractCodeBlocks(markdown).filter((block) => block.file !== undefined);
  if (countFileMarkers(markdown) === 0) continue;
  describe(`${document} shows the files it names`, () => {
    it("should follow every file marker with a code block", () => {
      expect(blocks).toHaveLength(countFileMarkers(markdown));
    });
    for (const block of blocks) {
      it(`should show ${block.file} as it is (block at line ${block.line})`, () => {
        const file = join(root, block.file!);
        expect(existsSync(file), `${block.file} does not exist`).toBe(true);
        // A fence's content never ends with the file's final newline, so the block plus one is the whole file.
        expect(`${block.code}\n`).toBe(readFileSync(file, "utf8"));
      });
    }
  });
}
