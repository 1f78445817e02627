import { describe, expect, it } from "vitest";
import { extractSnippets } from "./extract-snippets.js";

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
