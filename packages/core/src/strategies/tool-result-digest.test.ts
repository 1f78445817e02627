import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digestToolResult, isIdentifier, listIdentifiers } from "./tool-result-digest.js";

/** The plain form of the scan: candidates tried from every position, each token checked, each identifier once. */
function identifiersTriedEverywhere(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/[A-Za-z0-9_./~@-]*(?:[/_.\d]|[a-z][A-Z])[A-Za-z0-9_./~@-]*/g)) {
    const token = match[0].replace(/^[.\-@]+|[./\-@]+$/g, "");
    if (isIdentifier(token)) found.add(token);
  }
  return [...found];
}

describe("listIdentifiers", () => {
  it("finds paths, dotted, snake_case and camelCase names, ids and long numbers, in order of first appearance, once each", () => {
    const text =
      "Read /home/user/app/lib/router.ex and src/index.ts; Spotter.Repo.get(session_id) calls createContextManager; commit a2898e3, flight HAT136, order 3482917; src/index.ts again";
    expect(listIdentifiers(text, 100)).toEqual({
      identifiers: [
        "/home/user/app/lib/router.ex",
        "src/index.ts",
        "Spotter.Repo.get",
        "session_id",
        "createContextManager",
        "a2898e3",
        "HAT136",
        "3482917",
      ],
      total: 8,
    });
  });

  it("leaves out words, line numbers, versions, flags, CSS lengths, closing tags and prose with slashes", () => {
    expect(
      listIdentifiers(
        "The Error on line 42: and/or 3.14 in version 1.2.13 with --quick, width 0.5rem, </pre>, python3 e.g. well-known",
        100,
      ),
    ).toEqual({ identifiers: [], total: 0 });
  });

  it("finds what a scan trying every position finds, in the same order", () => {
    // The scan starts a candidate only where a run of identifier characters starts; the plain form tries every position.
    const pieces = [
      "src/",
      "index",
      ".ts",
      "_",
      "-",
      "@",
      "~",
      "Case",
      "camel",
      "42",
      "12345",
      " ",
      "\n",
      ",",
      "é",
      "x.Y",
      "a/b/c",
      "./",
      "..",
      "AB12",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (chosen) => {
        const text = chosen.join("");
        expect(listIdentifiers(text, Number.POSITIVE_INFINITY).identifiers).toEqual(identifiersTriedEverywhere(text));
      }),
      { seed: 20261128, numRuns: 2_000 },
    );
  });

  it("keeps the first maxCount and counts the rest", () => {
    expect(listIdentifiers("alpha_one beta_two gamma_three", 2)).toEqual({ identifiers: ["alpha_one", "beta_two"], total: 3 });
  });
});

describe("digestToolResult", () => {
  it("gives the first error line, cut when long, then the identifiers", () => {
    const long = `Error: ${"x".repeat(300)}`;
    expect(digestToolResult(`ok\n${long}\nsee lib/app.ex`, { maxIdentifiers: 5 })).toBe(
      `first error: ${long.slice(0, 160)}…; it named: lib/app.ex`,
    );
  });

  it("is empty for an output with neither", () => {
    expect(digestToolResult("all good, 3 files changed", { maxIdentifiers: 5 })).toBe("");
  });
});
