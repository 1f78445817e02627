import { describe, expect, it } from "vitest";
import { countFileMarkers, extractCodeBlocks, extractSnippets } from "./extract-snippets.js";

describe("extractSnippets", () => {
  it("should find each ts block with its line, and the reason a block is not run", () => {
    const markdown = [
      "# x",
      "```ts",
      "a();",
      "```",
      "",
      "<!-- snippet: not run (needs a key) -->",
      "```ts",
      "b();",
      "```",
      "```sh",
      "c",
      "```",
    ].join("\n");
    expect(extractSnippets(markdown)).toEqual([
      { line: 2, code: "a();" },
      { line: 7, code: "b();", notRun: "needs a key" },
    ]);
  });
});

describe("extractCodeBlocks", () => {
  it("should give each block its language and the file a marker before it names, and leave indented fences in the text", () => {
    const markdown = [
      "<!-- file: src/a.ts -->",
      "",
      "```ts",
      "export const a = 1;",
      "```",
      "- a list item:",
      "  ```md",
      "  text",
      "  ```",
      "<!-- file: package.json -->",
      "```json",
      "{}",
      "```",
      "```",
      "plain",
      "```",
      "Prose that names the marker, `<!-- file: x.ts -->`, is not one.",
    ].join("\n");
    expect(extractCodeBlocks(markdown)).toEqual([
      { line: 3, language: "ts", code: "export const a = 1;", file: "src/a.ts" },
      { line: 11, language: "json", code: "{}", file: "package.json" },
      { line: 14, language: "", code: "plain" },
    ]);
    expect(countFileMarkers(markdown)).toBe(2);
  });
});
